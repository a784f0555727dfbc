//===- compiler/Jit.cpp - ORC LLJIT per program, build orchestration ------===//

#include "compiler/Binary.h"
#include "compiler/Cache.h"
#include "compiler/Frontend.h"
#include "compiler/LinkBuiltins.h"
#include "compiler/Pipeline.h"
#include "compiler/Printf.h"
#include "compiler/Spirv.h"
#include "compiler/passes/CheckBounds.h"
#include "compiler/passes/DeferFloatAdds.h"
#include "scheduler/DeferredAdds.h"
#include "scheduler/DeviceEnqueue.h"
#include "scheduler/PipeRing.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/DebugObjectManagerPlugin.h>
#include <llvm/ExecutionEngine/Orc/EPCDebugObjectRegistrar.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h>
#include <llvm/ExecutionEngine/Orc/TargetProcess/JITLoaderGDB.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/DynamicLibrary.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/FormatVariadic.h>
#include <llvm/Support/LEB128.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <sstream>

#include <unistd.h>

using namespace llvm;

namespace clcpu::compiler {

/// One LLJIT instance per built program; the generated code lives as long as
/// this object.
class JitSession {
public:
  std::unique_ptr<orc::LLJIT> J;
};

CompiledProgram::CompiledProgram() = default;
CompiledProgram::~CompiledProgram() = default;

namespace {
void initTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    // The process's own symbols (libc, libm) resolve library calls.
    sys::DynamicLibrary::LoadLibraryPermanently(nullptr);
    // SLEEF's math functions, which builtins/math.cl calls.
    sleefLibrary();
  });
}

/// Optimized module with work-group functions, from \p M as the front end
/// (or the linker) left it. Returns the CL error code (\p FailCode on
/// failure).
cl_int lowerModule(Module &M, const Options &Opts, std::string &Log,
                   orc::JITTargetMachineBuilder &JTMB,
                   std::vector<KernelInfo> &Kernels, size_t &GlobalVarSize,
                   cl_int FailCode) {
  auto TM = JTMB.createTargetMachine();
  if (!TM) {
    Log += "internal error: " + toString(TM.takeError()) + "\n";
    return FailCode;
  }
  if (!lowerKernels(M, **TM, Opts, Kernels, GlobalVarSize, Log))
    return FailCode;
  return CL_SUCCESS;
}

/// Source → unoptimized module (\p M set on success).
cl_int frontEnd(LLVMContext &Ctx, const std::string &Source,
                const std::string &OptionText, const std::vector<Header> &Hs,
                std::string &Log, Options &Opts, std::unique_ptr<Module> &M,
                cl_int BadOptions, cl_int FailCode,
                const std::string &SourceDir = "") {
  initTargets();
  std::string OptErr;
  if (!parseOptions(OptionText, Opts, OptErr)) {
    Log += "error: " + OptErr + "\n";
    return BadOptions;
  }
  if (Opts.Debug && !SourceDir.empty())
    Opts.DebugSourceDir = writeDebugSources(SourceDir, Source, Hs, Log);
  M = compileSource(Ctx, Source, Opts, Hs, Log);
  return M ? CL_SUCCESS : FailCode;
}

orc::JITTargetMachineBuilder hostBuilder(bool OptDisable = false) {
  initTargets();
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB) // detectHost only fails for an unregistered target
    report_fatal_error(JTMB.takeError());
  JTMB->setCodeGenOptLevel(OptDisable ? CodeGenOptLevel::None
                                      : CodeGenOptLevel::Aggressive);
  return std::move(*JTMB);
}

/// Milliseconds since \p T0, for CLCPU_LOG_BUILD_TIMES.
class StageTimer {
public:
  explicit StageTimer(bool On) : On(On) {}
  void stage(const char *Name) {
    auto Now = std::chrono::steady_clock::now();
    if (On)
      std::fprintf(stderr, "clcpu: build: %-10s %8.2f ms\n", Name,
                   std::chrono::duration<double, std::milli>(Now - T0).count());
    T0 = Now;
  }

private:
  bool On;
  std::chrono::steady_clock::time_point T0 = std::chrono::steady_clock::now();
};

/// Writes \p Text to stderr (\p Where is "-" or "stderr") or to a new file
/// in directory \p Where, named after \p Tag and \p Suffix.
void dump(const std::string &Where, const std::string &Tag, const char *Suffix,
          const std::string &Text) {
  if (Where.empty())
    return;
  if (Where == "-" || Where == "stderr") {
    std::fprintf(stderr, "; ---- clcpu %s %s ----\n%s\n", Tag.c_str(), Suffix,
                 Text.c_str());
    return;
  }
  sys::fs::create_directories(Where);
  static std::atomic<unsigned> Counter{0};
  std::string Path =
      Where + "/" + Tag + "-" + std::to_string(Counter++) + "-" + Suffix;
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (!EC)
    OS << Text;
}

std::string moduleText(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  M.print(OS, nullptr);
  return OS.str();
}

std::string bitcodeOf(const Module &M) {
  std::string S;
  raw_string_ostream OS(S);
  WriteBitcodeToFile(M, OS);
  return OS.str();
}

/// Bytes of the fixed-size allocas in \p F's entry block.
size_t staticAllocaBytes(const Function &F) {
  size_t N = 0;
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (const Instruction &I : F.getEntryBlock())
    if (auto *A = dyn_cast<AllocaInst>(&I))
      if (auto Size = A->getAllocationSize(DL))
        if (!Size->isScalable())
          N += Size->getFixedValue();
  return N;
}

/// Machine code for \p M as a relocatable object, for the JIT's linker.
bool emitObject(Module &M, orc::JITTargetMachineBuilder &JTMB, std::string &Obj,
                std::string &Log) {
  auto TM = JTMB.createTargetMachine();
  if (!TM) {
    Log += "internal error: " + toString(TM.takeError()) + "\n";
    return false;
  }
  // Each function's frame size goes to a .stack_sizes section, so that the
  // scheduler can give a kernel with large private arrays a stack that
  // holds its frame (frameSizes below).
  (*TM)->Options.EmitStackSizeSection = true;
  // A frame larger than a page touches each page on the way down: one that
  // does not fit faults on the stack's guard page instead of jumping over
  // it into whatever is mapped below.
  for (Function &F : M)
    if (!F.isDeclaration())
      F.addFnAttr("probe-stack", "inline-asm");
  SmallString<0> Buf;
  raw_svector_ostream OS(Buf);
  legacy::PassManager PM;
  if ((*TM)->addPassesToEmitFile(PM, OS, nullptr,
                                 CodeGenFileType::ObjectFile)) {
    Log += "internal error: the target cannot emit object code\n";
    return false;
  }
  PM.run(M);
  Obj.assign(Buf.begin(), Buf.end());
  return true;
}

/// CLCPU_PERF_MAP: appends each linked function's address, size and name to
/// /tmp/perf-<pid>.map, the file `perf report` reads to name JIT code, and
/// writes its linked bytes to /tmp/perf-<pid>-<address>.bin, so that a
/// sample's offset can be read against the code that ran (`objdump -D -b
/// binary -m i386:x86-64 --adjust-vma=<address>`).
class PerfMapPlugin : public orc::ObjectLinkingLayer::Plugin {
  static Error append(jitlink::LinkGraph &G) {
    std::string Lines;
    std::string Prefix = "/tmp/perf-" + std::to_string(getpid());
    for (jitlink::Symbol *Sym : G.defined_symbols()) {
      if (!Sym->isCallable() || !Sym->hasName() || !Sym->getSize())
        continue;
      uint64_t At = Sym->getAddress().getValue();
      Lines += formatv("{0:x} {1:x} {2}\n", At, Sym->getSize(), Sym->getName())
                   .str();
      ArrayRef<char> Code = Sym->getBlock().getContent();
      if (Sym->getBlock().isZeroFill() ||
          Sym->getOffset() + Sym->getSize() > Code.size())
        continue;
      std::string Bin = Prefix + formatv("-{0:x}.bin", At).str();
      if (FILE *F = std::fopen(Bin.c_str(), "wb")) {
        std::fwrite(Code.data() + Sym->getOffset(), 1, Sym->getSize(), F);
        std::fclose(F);
      }
    }
    static std::mutex M;
    std::lock_guard<std::mutex> Lock(M);
    std::string Path = Prefix + ".map";
    if (FILE *F = std::fopen(Path.c_str(), "a")) {
      std::fwrite(Lines.data(), 1, Lines.size(), F);
      std::fclose(F);
    }
    return Error::success();
  }

public:
  void modifyPassConfig(orc::MaterializationResponsibility &,
                        jitlink::LinkGraph &,
                        jitlink::PassConfiguration &Config) override {
    Config.PostFixupPasses.emplace_back(&append);
  }
  Error notifyFailed(orc::MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(orc::JITDylib &, orc::ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(orc::JITDylib &, orc::ResourceKey,
                                   orc::ResourceKey) override {}
};

/// The frame size of each function of \p ObjectCode, by symbol name, from
/// its .stack_sizes section: per function, its address (a relocation
/// against its symbol) and its frame size as ULEB128. Empty if the section
/// is missing (then the scheduler falls back to the static allocas).
StringMap<uint64_t> frameSizes(StringRef ObjectCode) {
  StringMap<uint64_t> Out;
  auto Obj = object::ObjectFile::createObjectFile(
      MemoryBufferRef(ObjectCode, "program.o"));
  if (!Obj) {
    consumeError(Obj.takeError());
    return Out;
  }
  for (const object::SectionRef &Rel : (*Obj)->sections()) {
    auto Target = Rel.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == (*Obj)->section_end())
      continue;
    auto Name = (*Target)->getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != ".stack_sizes")
      continue;
    auto Data = (*Target)->getContents();
    if (!Data) {
      consumeError(Data.takeError());
      continue;
    }
    const auto *Begin = reinterpret_cast<const uint8_t *>(Data->data());
    const uint8_t *End = Begin + Data->size();
    for (const object::RelocationRef &R : Rel.relocations()) {
      object::symbol_iterator Sym = R.getSymbol();
      if (Sym == (*Obj)->symbol_end())
        continue;
      auto SymName = Sym->getName();
      if (!SymName) {
        consumeError(SymName.takeError());
        continue;
      }
      // The size follows the 8-byte address the relocation fills in.
      uint64_t At = R.getOffset() + 8;
      if (At >= Data->size())
        continue;
      unsigned Len = 0;
      const char *Err = nullptr;
      uint64_t Size = decodeULEB128(Begin + At, &Len, End, &Err);
      if (!Err)
        Out[*SymName] = Size;
    }
  }
  return Out;
}

/// Whether \p ObjectCode carries DWARF (the program was built with -g).
bool hasDebugInfo(StringRef ObjectCode) {
  auto Obj = object::ObjectFile::createObjectFile(
      MemoryBufferRef(ObjectCode, "program.o"));
  if (!Obj) {
    consumeError(Obj.takeError());
    return false;
  }
  for (const object::SectionRef &Sec : (*Obj)->sections()) {
    auto Name = Sec.getName();
    if (Name && *Name == ".debug_info")
      return true;
    if (!Name)
      consumeError(Name.takeError());
  }
  return false;
}

/// Links \p P.ObjectCode into a new LLJIT and resolves every kernel's
/// work-group function.
cl_int jitObject(CompiledProgram &P, orc::JITTargetMachineBuilder &JTMB,
                 std::string &Log, cl_int FailCode, bool PerfMap) {
  auto DL = JTMB.getDefaultDataLayoutForTarget();
  if (!DL) {
    Log += "internal error: " + toString(DL.takeError()) + "\n";
    return FailCode;
  }
  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(JTMB).create();
  if (!J) {
    Log += "internal error: " + toString(J.takeError()) + "\n";
    return FailCode;
  }
  // memcpy/memset and libm calls the code generator may emit.
  auto Gen = orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      DL->getGlobalPrefix());
  if (!Gen) {
    Log += "internal error: " + toString(Gen.takeError()) + "\n";
    return FailCode;
  }
  // OpenCL C printf, not the C library's (vector specifiers, return value),
  // the queues of deferred float adds (passes/DeferFloatAdds.cpp), the
  // pipe operations (scheduler/PipeRing.h) and device-side enqueue's calls
  // into the runtime (scheduler/DeviceEnqueue.h).
  const auto Fn = JITSymbolFlags::Exported | JITSymbolFlags::Callable;
  orc::SymbolMap Runtime{
      {(*J)->mangleAndIntern("printf"),
       {orc::ExecutorAddr::fromPtr(&clcpu_printf), Fn}},
      {(*J)->mangleAndIntern(DeferredAddF32),
       {orc::ExecutorAddr::fromPtr(&clcpu_deferred_fadd_f32), Fn}},
      {(*J)->mangleAndIntern(DeferredAddF64),
       {orc::ExecutorAddr::fromPtr(&clcpu_deferred_fadd_f64), Fn}}};
  for (const PipeRingSymbol &S : PipeRingSymbols)
    Runtime[(*J)->mangleAndIntern(S.Name)] = {
        orc::ExecutorAddr::fromPtr(S.Address), Fn};
  for (const DeviceEnqueueSymbol *S = deviceEnqueueSymbols(); S->Name; ++S)
    Runtime[(*J)->mangleAndIntern(S->Name)] = {
        orc::ExecutorAddr::fromPtr(S->Address), Fn};
  if (Error E = (*J)->getMainJITDylib().define(
          orc::absoluteSymbols(std::move(Runtime)))) {
    Log += "internal error: " + toString(std::move(E)) + "\n";
    return FailCode;
  }
  (*J)->getMainJITDylib().addGenerator(std::move(*Gen));
  if (PerfMap)
    if (auto *OLL =
            dyn_cast<orc::ObjectLinkingLayer>(&(*J)->getObjLinkingLayer()))
      OLL->addPlugin(std::make_unique<PerfMapPlugin>());
  // -g: the object's DWARF goes to debuggers through the GDB JIT interface
  // (__jit_debug_register_code, which gdb and lldb watch), so that a kernel
  // can be stepped through by its OpenCL C source lines. Only then: the
  // registration copies the object. The registration function is named by
  // its address: orc::enableDebuggerSupport would look it up with dlsym,
  // which does not see libLLVM when the ICD loader dlopen'ed the driver.
  if (hasDebugInfo(P.ObjectCode))
    if (auto *OLL =
            dyn_cast<orc::ObjectLinkingLayer>(&(*J)->getObjLinkingLayer()))
      OLL->addPlugin(std::make_unique<orc::DebugObjectManagerPlugin>(
          (*J)->getExecutionSession(),
          std::make_unique<orc::EPCDebugObjectRegistrar>(
              (*J)->getExecutionSession(),
              orc::ExecutorAddr::fromPtr(
                  &llvm_orc_registerJITLoaderGDBWrapper)),
          /*RequireDebugSections=*/true, /*AutoRegisterCode=*/true));
  // Sleef_* (the driver's own libsleef, loaded with the driver, possibly
  // outside the process's global symbol scope).
  if (const std::string &Sleef = sleefLibrary(); !Sleef.empty()) {
    auto SleefGen = orc::DynamicLibrarySearchGenerator::Load(
        Sleef.c_str(), DL->getGlobalPrefix());
    if (!SleefGen) {
      Log += "internal error: " + toString(SleefGen.takeError()) + "\n";
      return FailCode;
    }
    (*J)->getMainJITDylib().addGenerator(std::move(*SleefGen));
  }
  if (Error E = (*J)->addObjectFile(
          MemoryBuffer::getMemBufferCopy(P.ObjectCode, "program.o"))) {
    Log += "internal error: " + toString(std::move(E)) + "\n";
    return FailCode;
  }
  StringMap<uint64_t> Frames = frameSizes(P.ObjectCode);
  for (KernelInfo &K : P.Kernels) {
    K.StackFrameSize = Frames.lookup("wg_" + K.Name);
    auto Sym = (*J)->lookup("wg_" + K.Name);
    if (!Sym) {
      Log += "error: kernel '" + K.Name +
             "' cannot be linked: " + toString(Sym.takeError()) + "\n";
      return FailCode;
    }
    K.Fn = Sym->toPtr<WorkGroupFn>();
    // Built in the bounds-check mode: the table of its check sites
    // (passes/CheckBounds.h).
    if (auto Sites = (*J)->lookup(CheckSitesPrefix + K.Name)) {
      K.CheckSites = Sites->toPtr<const char *const *>();
      size_t End = 0;
      while (K.CheckSites[End])
        ++End;
      K.CheckReportFlagged = K.CheckSites[End + 1] != nullptr;
    } else
      consumeError(Sites.takeError());
  }
  P.Jit = std::make_unique<JitSession>();
  P.Jit->J = std::move(*J);
  return CL_SUCCESS;
}

/// JITs the optimized module \p M whose kernels are \p Kernels into a new
/// CompiledProgram. \p Payload: the serialized executable, computed here if
/// empty.
cl_int jitModule(std::unique_ptr<LLVMContext> CtxArg,
                 std::unique_ptr<Module> MArg, std::vector<KernelInfo> Kernels,
                 size_t GlobalVarSize, std::string Payload, bool OptDisable,
                 const BuildSettings &S, const std::string &Tag,
                 std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                 cl_int FailCode) {
  // Parameters may be destroyed in any order; locals go module first.
  std::unique_ptr<LLVMContext> Ctx = std::move(CtxArg);
  std::unique_ptr<Module> M = std::move(MArg);
  orc::JITTargetMachineBuilder JTMB = hostBuilder(OptDisable);
  auto P = std::make_unique<CompiledProgram>();
  P->Kernels = std::move(Kernels);
  P->GlobalVariableTotalSize = GlobalVarSize;
  for (KernelInfo &K : P->Kernels)
    if (const Function *F = M->getFunction("wg_" + K.Name);
        F && !F->isDeclaration())
      K.PrivateMemSize = staticAllocaBytes(*F);
  P->Payload = Payload.empty() ? serializeExecutable(P->Kernels, GlobalVarSize,
                                                     bitcodeOf(*M))
                               : std::move(Payload);
  if (!S.DumpAsm.empty()) {
    if (auto TM = JTMB.createTargetMachine()) {
      std::unique_ptr<Module> Clone = CloneModule(*M);
      SmallString<0> Asm;
      raw_svector_ostream OS(Asm);
      legacy::PassManager PM;
      if (!(*TM)->addPassesToEmitFile(PM, OS, nullptr,
                                      CodeGenFileType::AssemblyFile)) {
        PM.run(*Clone);
        dump(S.DumpAsm, Tag, "asm.s", Asm.str().str());
      }
    } else {
      consumeError(TM.takeError());
    }
  }

  // Code generation here (not in LLJIT's IR layer), so that the object
  // code can be cached.
  if (!emitObject(*M, JTMB, P->ObjectCode, Log)) {
    return FailCode;
  }
  M.reset();
  Ctx.reset();
  if (cl_int Err = jitObject(*P, JTMB, Log, FailCode, S.PerfMap))
    return Err;
  Out = std::move(P);
  return CL_SUCCESS;
}

/// Lowers \p M and JITs it into a new CompiledProgram.
cl_int makeExecutable(std::unique_ptr<LLVMContext> CtxArg,
                      std::unique_ptr<Module> MArg, const Options &Opts,
                      const BuildSettings &S, const std::string &Tag,
                      StageTimer &Timer, std::string &Log,
                      std::unique_ptr<CompiledProgram> &Out, cl_int FailCode) {
  std::unique_ptr<LLVMContext> Ctx = std::move(CtxArg);
  std::unique_ptr<Module> M = std::move(MArg);
  orc::JITTargetMachineBuilder JTMB = hostBuilder(Opts.OptDisable);
  if (!S.DumpIRBefore.empty())
    dump(S.DumpIRBefore, Tag, "before.ll", moduleText(*M));
  std::vector<KernelInfo> Kernels;
  size_t GV = 0;
  cl_int Err = lowerModule(*M, Opts, Log, JTMB, Kernels, GV, FailCode);
  if (Err != CL_SUCCESS)
    return Err;
  if (!S.DumpIRAfter.empty())
    dump(S.DumpIRAfter, Tag, "after.ll", moduleText(*M));
  Timer.stage("optimize");
  Err = jitModule(std::move(Ctx), std::move(M), std::move(Kernels), GV, "",
                  Opts.OptDisable, S, Tag, Log, Out, FailCode);
  Timer.stage("jit");
  return Err;
}

std::string tagOf(const std::string &Source, const std::string &Options) {
  char Buf[20];
  std::snprintf(Buf, sizeof Buf, "%016llx",
                static_cast<unsigned long long>(
                    fnv1a(Options.data(), Options.size(),
                          fnv1a(Source.data(), Source.size()))));
  return std::string("program-") + Buf;
}
} // namespace

std::string llvmVersion() { return LLVM_VERSION_STRING; }

namespace {
cl_int loadCached(const std::string &Entry, const std::string &OptionText,
                  std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                  bool PerfMap);
/// loadExecutable without the kernel cache.
cl_int loadExecutableUncached(const std::string &Payload,
                              const std::string &OptionText, std::string &Log,
                              std::unique_ptr<CompiledProgram> &Out,
                              const BuildSettings &S);

/// The kernel cache's entry \p Key, built with \p OptionText, into \p Out
/// (true); an entry that cannot be loaded is noted in \p Log (and on
/// stderr with CLCPU_LOG_BUILD_TIMES), and \p Out stays empty.
bool fromCache(const std::string &Key, const std::string &OptionText,
               const BuildSettings &S, std::unique_ptr<CompiledProgram> &Out,
               std::string &Log) {
  BinaryContents Entry;
  std::string Note;
  if (cache::load(S.CacheDir, Key, S.DriverVersion, Entry, Note) &&
      Entry.Options == OptionText) {
    std::string LoadLog;
    if (loadCached(Entry.Payload, OptionText, LoadLog, Out, S.PerfMap) ==
        CL_SUCCESS) {
      Out->FromCache = true;
      return true;
    }
    Out.reset();
    Note = "cache entry " + Key + " could not be loaded: " + LoadLog;
  }
  if (!Note.empty()) {
    Log += "note: " + Note + "\n";
    if (S.LogTimes)
      std::fprintf(stderr, "clcpu: %s\n", Note.c_str());
  }
  return false;
}

/// Stores \p P, built with \p OptionText, as the kernel cache's entry
/// \p Key (a failure is only logged: the build itself succeeded).
void intoCache(const std::string &Key, const std::string &OptionText,
               const BuildSettings &S, const CompiledProgram &P) {
  std::string Note;
  if (!cache::store(S.CacheDir, Key,
                    writeBinary({CL_PROGRAM_BINARY_TYPE_EXECUTABLE, OptionText,
                                 packPair(P.Payload, P.ObjectCode)},
                                S.DriverVersion),
                    Note, S.CacheMaxBytes) &&
      S.LogTimes)
    std::fprintf(stderr, "clcpu: %s\n", Note.c_str());
}
} // namespace

cl_int loadExecutable(const std::string &Payload, const std::string &OptionText,
                      std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                      const BuildSettings &S) {
  initTargets();
  // An executable binary holds optimized bitcode, whose code generation
  // takes as long as a build's (a minute for hashcat's largest kernels,
  // which it loads from its own binary cache at every start): the object
  // code goes into the kernel cache like a build's, keyed by the binary.
  std::string Key;
  if (!S.CacheDir.empty()) {
    Key = cache::key(Payload, "executable binary\n" + OptionText,
                     S.DriverVersion);
    // (The entry must hold this very binary: a key is a hash.)
    if (fromCache(Key, OptionText, S, Out, Log)) {
      if (Out->Payload == Payload)
        return CL_SUCCESS;
      Out.reset();
    }
  }
  cl_int Err = loadExecutableUncached(Payload, OptionText, Log, Out, S);
  if (Err == CL_SUCCESS && !Key.empty())
    intoCache(Key, OptionText, S, *Out);
  return Err;
}

namespace {
cl_int loadExecutableUncached(const std::string &Payload,
                              const std::string &OptionText, std::string &Log,
                              std::unique_ptr<CompiledProgram> &Out,
                              const BuildSettings &S) {
  std::vector<KernelInfo> Kernels;
  size_t GV = 0;
  std::string Bitcode;
  if (!deserializeExecutable(Payload, Kernels, GV, Bitcode)) {
    Log += "error: the program binary's executable is malformed\n";
    return CL_BUILD_PROGRAM_FAILURE;
  }
  auto Ctx = std::make_unique<LLVMContext>();
  auto Parsed = parseBitcodeFile(MemoryBufferRef(Bitcode, "executable"), *Ctx);
  if (!Parsed) {
    Log += "error: invalid bitcode in the program binary: " +
           toString(Parsed.takeError()) + "\n";
    return CL_BUILD_PROGRAM_FAILURE;
  }
  Options Opts;
  std::string OptErr;
  bool OptDisable = parseOptions(OptionText, Opts, OptErr) && Opts.OptDisable;
  return jitModule(std::move(Ctx), std::move(*Parsed), std::move(Kernels), GV,
                   Payload, OptDisable, S, tagOf("", OptionText), Log, Out,
                   CL_BUILD_PROGRAM_FAILURE);
}
} // namespace

namespace {
/// A cache entry's payload (the executable plus its object code) → a
/// CompiledProgram, with neither Clang, the optimizer nor code generation.
cl_int loadCached(const std::string &Entry, const std::string &OptionText,
                  std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                  bool PerfMap) {
  auto P = std::make_unique<CompiledProgram>();
  std::string Bitcode;
  size_t GV = 0;
  if (!unpackPair(Entry, P->Payload, P->ObjectCode) ||
      !deserializeExecutable(P->Payload, P->Kernels, GV, Bitcode) ||
      P->ObjectCode.empty()) {
    Log += "the entry is malformed";
    return CL_BUILD_PROGRAM_FAILURE;
  }
  P->GlobalVariableTotalSize = GV;
  Options Opts;
  std::string OptErr;
  bool OptDisable = parseOptions(OptionText, Opts, OptErr) && Opts.OptDisable;
  orc::JITTargetMachineBuilder JTMB = hostBuilder(OptDisable);
  if (cl_int Err = jitObject(*P, JTMB, Log, CL_BUILD_PROGRAM_FAILURE, PerfMap))
    return Err;
  Out = std::move(P);
  return CL_SUCCESS;
}
} // namespace

namespace {
/// Makes an unoptimized module of the program (\p Ctx, \p Opts set; the
/// CL error code on failure).
using FrontEndFn = llvm::function_ref<cl_int(
    LLVMContext &Ctx, const Options &Opts, std::unique_ptr<Module> &M)>;

/// clBuildProgram: the kernel cache (keyed by \p KeySource and the
/// options, after \p KeyKind) first, else \p FrontEnd, the pipeline and
/// the JIT, and the result into the cache.
cl_int buildCached(const std::string &KeySource, const char *KeyKind,
                   const std::string &Tag, const char *FrontEndStage,
                   const std::string &Requested, FrontEndFn FrontEnd,
                   std::string &Log, std::unique_ptr<CompiledProgram> &Out,
                   const BuildSettings &S) {
  // CLCPU_CHECK_BOUNDS: as if the option were given, which also keys the
  // cache entry apart from the unchecked build's.
  const std::string OptionText =
      (S.CheckBounds ? Requested + " -fclcpu-check-bounds" : Requested) +
      (S.Images ? " -fclcpu-images" : "");
  StageTimer Timer(S.LogTimes);
  initTargets();
  Options Opts;
  std::string OptErr;
  if (!parseOptions(OptionText, Opts, OptErr)) {
    Log += "error: " + OptErr + "\n";
    return CL_INVALID_BUILD_OPTIONS;
  }
  // A launch-time specialization is the same program with some argument
  // values fixed: its own cache entry.
  Opts.Bindings = S.Bindings;
  std::string Key;
  if (!S.CacheDir.empty()) {
    Key = cache::key(S.Bindings.empty() ? KeySource
                                        : S.Bindings.key() + "\n" + KeySource,
                     KeyKind + OptionText, S.DriverVersion);
    if (fromCache(Key, OptionText, S, Out, Log)) {
      Timer.stage("cache hit");
      return CL_SUCCESS;
    }
  }
  auto Ctx = std::make_unique<LLVMContext>();
  std::unique_ptr<Module> M;
  if (cl_int Err = FrontEnd(*Ctx, Opts, M))
    return Err;
  Timer.stage(FrontEndStage);
  cl_int Err = makeExecutable(std::move(Ctx), std::move(M), Opts, S, Tag, Timer,
                              Log, Out, CL_BUILD_PROGRAM_FAILURE);
  if (Err == CL_SUCCESS && !Key.empty()) {
    intoCache(Key, OptionText, S, *Out);
    Timer.stage("cache store");
  }
  return Err;
}

/// What identifies an IL program's build besides its options: the module
/// and the specialization constants' values.
std::string ilKeySource(const std::string &Il,
                        const std::vector<SpecConstantValue> &Spec) {
  std::string K;
  for (const SpecConstantValue &V : Spec) {
    K += "spec " + std::to_string(V.Id) + ":";
    for (unsigned char B : V.Bytes)
      K += formatv("{0:x-2}", B).str();
    K += "\n";
  }
  return K + Il;
}

/// The host's triple and data layout, for translated modules.
cl_int hostTarget(std::string &Triple, DataLayout &DL, std::string &Log,
                  cl_int FailCode) {
  orc::JITTargetMachineBuilder JTMB = hostBuilder();
  auto Layout = JTMB.getDefaultDataLayoutForTarget();
  if (!Layout) {
    Log += "internal error: " + toString(Layout.takeError()) + "\n";
    return FailCode;
  }
  DL = *Layout;
  Triple = JTMB.getTargetTriple().str();
  return CL_SUCCESS;
}
} // namespace

cl_int build(const std::string &Source, const std::string &OptionText,
             std::string &Log, std::unique_ptr<CompiledProgram> &Out,
             const BuildSettings &S) {
  // -g: the copy of the source the DWARF names, written before the cache
  // is asked (a cached executable names the copy its first build wrote,
  // which may have been removed since).
  std::string SourceDir;
  Options Parsed;
  std::string Unused;
  if (!S.SourceDir.empty() && parseOptions(OptionText, Parsed, Unused) &&
      Parsed.Debug)
    SourceDir = writeDebugSources(S.SourceDir, Source, {}, Log);
  return buildCached(
      Source, "", tagOf(Source, OptionText), "frontend", OptionText,
      [&](LLVMContext &Ctx, const Options &Opts, std::unique_ptr<Module> &M) {
        Options WithSources = Opts;
        WithSources.DebugSourceDir = SourceDir;
        M = compileSource(Ctx, Source, WithSources, {}, Log);
        return M ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
      },
      Log, Out, S);
}

cl_int buildIL(const std::string &Il,
               const std::vector<SpecConstantValue> &Spec,
               const std::string &OptionText, std::string &Log,
               std::unique_ptr<CompiledProgram> &Out, const BuildSettings &S) {
  std::string KeySource = ilKeySource(Il, Spec);
  // Keyed apart from any OpenCL C source by an option no source build
  // accepts.
  return buildCached(
      KeySource, "-x spirv ", tagOf(KeySource, OptionText), "spirv", OptionText,
      [&](LLVMContext &Ctx, const Options &Opts, std::unique_ptr<Module> &M) {
        std::string Triple;
        DataLayout DL("");
        if (cl_int Err = hostTarget(Triple, DL, Log, CL_BUILD_PROGRAM_FAILURE))
          return Err;
        M = translateSpirv(Ctx, Il, Spec, Opts, Triple, DL, S, Log);
        return M ? CL_SUCCESS : CL_BUILD_PROGRAM_FAILURE;
      },
      Log, Out, S);
}

cl_int compileIL(const std::string &Il,
                 const std::vector<SpecConstantValue> &Spec,
                 const std::string &OptionText, std::string &Log,
                 std::string &Object, const BuildSettings &S) {
  initTargets();
  Options Opts;
  std::string OptErr;
  if (!parseOptions(OptionText, Opts, OptErr)) {
    Log += "error: " + OptErr + "\n";
    return CL_INVALID_COMPILER_OPTIONS;
  }
  std::string Triple;
  DataLayout DL("");
  if (cl_int Err = hostTarget(Triple, DL, Log, CL_COMPILE_PROGRAM_FAILURE))
    return Err;
  LLVMContext Ctx;
  std::unique_ptr<Module> M =
      translateSpirv(Ctx, Il, Spec, Opts, Triple, DL, S, Log);
  if (!M)
    return CL_COMPILE_PROGRAM_FAILURE;
  Object = bitcodeOf(*M);
  return CL_SUCCESS;
}

cl_int compile(const std::string &Source, const std::string &OptionText,
               const std::vector<Header> &Headers, std::string &Log,
               std::string &Object, const BuildSettings &S) {
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  Options Opts;
  if (cl_int Err = frontEnd(
          Ctx, Source, S.Images ? OptionText + " -fclcpu-images" : OptionText,
          Headers, Log, Opts, M, CL_INVALID_COMPILER_OPTIONS,
          CL_COMPILE_PROGRAM_FAILURE, S.SourceDir))
    return Err;
  Object = bitcodeOf(*M);
  return CL_SUCCESS;
}

cl_int link(const std::vector<std::string> &Objects,
            const std::string &OptionText, std::string &Log,
            std::unique_ptr<CompiledProgram> &Out, bool &IsLibrary,
            std::string &Library, const BuildSettings &S) {
  initTargets();
  StageTimer Timer(S.LogTimes);
  std::string OptErr;
  if (!parseLinkOptions(OptionText, IsLibrary, OptErr)) {
    Log += "error: " + OptErr + "\n";
    return CL_INVALID_LINKER_OPTIONS;
  }
  auto Ctx = std::make_unique<LLVMContext>();
  std::string LinkDiags;
  Ctx->setDiagnosticHandlerCallBack(
      [](const DiagnosticInfo *DI, void *Text) {
        raw_string_ostream OS(*static_cast<std::string *>(Text));
        DiagnosticPrinterRawOStream DP(OS);
        OS << "error: ";
        DI->print(DP);
        OS << "\n";
      },
      &LinkDiags);
  std::unique_ptr<Module> M;
  for (const std::string &Obj : Objects) {
    auto Parsed = parseBitcodeFile(MemoryBufferRef(Obj, "object"), *Ctx);
    if (!Parsed) {
      Log += "error: invalid compiled object: " + toString(Parsed.takeError()) +
             "\n";
      return CL_LINK_PROGRAM_FAILURE;
    }
    if (!M) {
      M = std::move(*Parsed);
      continue;
    }
    if (Linker::linkModules(*M, std::move(*Parsed))) {
      Log += LinkDiags;
      return CL_LINK_PROGRAM_FAILURE;
    }
  }
  if (!M) {
    Log += "error: nothing to link\n";
    return CL_LINK_PROGRAM_FAILURE;
  }
  Timer.stage("link");
  if (IsLibrary) {
    Library = bitcodeOf(*M);
    return CL_SUCCESS;
  }
  Options Lowering;
  Lowering.CheckBounds = S.CheckBounds;
  return makeExecutable(std::move(Ctx), std::move(M), Lowering, S,
                        tagOf("", OptionText), Timer, Log, Out,
                        CL_LINK_PROGRAM_FAILURE);
}

std::string optimizedIR(const std::string &Source,
                        const std::string &OptionText, std::string &Log) {
  orc::JITTargetMachineBuilder JTMB = hostBuilder();
  LLVMContext Ctx;
  std::unique_ptr<Module> M;
  std::vector<KernelInfo> Kernels;
  size_t GV = 0;
  Options Opts;
  if (frontEnd(Ctx, Source, OptionText, {}, Log, Opts, M,
               CL_INVALID_BUILD_OPTIONS, CL_BUILD_PROGRAM_FAILURE) ||
      lowerModule(*M, Opts, Log, JTMB, Kernels, GV, CL_BUILD_PROGRAM_FAILURE))
    return "";
  return moduleText(*M);
}

} // namespace clcpu::compiler
