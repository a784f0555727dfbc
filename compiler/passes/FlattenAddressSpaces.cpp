//===- FlattenAddressSpaces.cpp - SPIR address spaces to the flat one -----===//
//
// A module translated from SPIR-V (compiler/Spirv.cpp) puts its pointers in
// the SPIR address spaces: 1 global, 2 constant, 3 local, 4 generic, 0
// private. The front end compiles OpenCL C for the host target, which has
// one flat address space: every pointer is in address space 0, the
// builtin library (builtins/) takes address-space-0 pointers, and the
// kernel passes expect that shape. On a CPU the spaces are one memory, so
// nothing is lost: the kernels' argument kinds come from their
// kernel_arg_addr_space metadata, which stays, and to_global/get_fence
// look at where a pointer points.
//
// Pointer types cannot change in place, so the module is rebuilt: each
// global variable whose type or space changes, and every defined function
// (any body may hold such pointers), gets a new copy with the flattened
// types (LLVM's value mapper with a type remapper), takes the old one's
// name, and the old one goes. Casts between address spaces become the
// value itself; overloaded intrinsics get the declaration of their new
// types (llvm.memcpy.p1.p0.i64 becomes llvm.memcpy.p0.p0.i64).
//
// Module-scope variables of the local space (SPIR-V Workgroup storage)
// carry WorkGroupVariableMetadata afterwards: each kernel that uses one
// gets it in its work-group's local block, like the __local variables the
// front end declares in kernels. spir_func, which the x86 back end does not
// know, becomes the C calling convention (what the front end gives
// non-kernel functions); spir_kernel stays, it marks the kernels.

#include "compiler/passes/FlattenAddressSpaces.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Debug.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

using namespace llvm;

#define DEBUG_TYPE "clcpu-flatten-address-spaces"

namespace clcpu::compiler {

namespace {

/// Whether \p T holds a pointer outside address space 0.
bool hasSpacedPointer(Type *T, SmallPtrSetImpl<Type *> &Seen) {
  if (auto *P = dyn_cast<PointerType>(T))
    return P->getAddressSpace() != 0;
  if (!Seen.insert(T).second)
    return false;
  for (Type *Sub : T->subtypes())
    if (hasSpacedPointer(Sub, Seen))
      return true;
  return false;
}

/// A type with every pointer moved to address space 0.
class FlatTypes : public ValueMapTypeRemapper {
public:
  explicit FlatTypes(LLVMContext &C) : C(C) {}

  Type *remapType(Type *T) override {
    if (auto It = Map.find(T); It != Map.end())
      return It->second;
    SmallPtrSet<Type *, 8> Seen;
    if (!hasSpacedPointer(T, Seen))
      return Map[T] = T;
    if (isa<PointerType>(T))
      return Map[T] = PointerType::get(C, 0);
    if (auto *V = dyn_cast<VectorType>(T))
      return Map[T] = VectorType::get(remapType(V->getElementType()),
                                      V->getElementCount());
    if (auto *A = dyn_cast<ArrayType>(T))
      return Map[T] = ArrayType::get(remapType(A->getElementType()),
                                     A->getNumElements());
    if (auto *F = dyn_cast<FunctionType>(T)) {
      SmallVector<Type *, 8> Params;
      for (Type *P : F->params())
        Params.push_back(remapType(P));
      return Map[T] = FunctionType::get(remapType(F->getReturnType()), Params,
                                        F->isVarArg());
    }
    auto *S = cast<StructType>(T);
    if (S->isLiteral()) {
      SmallVector<Type *, 8> Elems;
      for (Type *E : S->elements())
        Elems.push_back(remapType(E));
      return Map[T] = StructType::get(C, Elems, S->isPacked());
    }
    // An identified struct may contain itself (through pointers, which
    // hold no element type now, but also by name in old bitcode): the new
    // struct is in the map before its body is computed.
    std::string Name = S->getName().str();
    S->setName("");
    StructType *New = StructType::create(C, Name);
    Map[T] = New;
    SmallVector<Type *, 8> Elems;
    for (Type *E : S->elements())
      Elems.push_back(remapType(E));
    New->setBody(Elems, S->isPacked());
    return New;
  }

private:
  LLVMContext &C;
  DenseMap<Type *, Type *> Map;
};

/// Constant address-space casts become their (mapped) operand: the types
/// they cast between are one type now.
class DropSpaceCasts : public ValueMaterializer {
public:
  DropSpaceCasts(ValueToValueMapTy &VMap, FlatTypes &Types)
      : VMap(VMap), Types(Types) {}
  Value *materialize(Value *V) override {
    if (auto *CE = dyn_cast<ConstantExpr>(V);
        CE && CE->getOpcode() == Instruction::AddrSpaceCast)
      return MapValue(CE->getOperand(0), VMap, RF_None, &Types, this);
    return nullptr;
  }

private:
  ValueToValueMapTy &VMap;
  FlatTypes &Types;
};

/// \p Attrs of a function with \p NumParams parameters, with the types of
/// its typed parameter attributes (byval, sret, ...) flattened.
AttributeList remapAttributes(LLVMContext &C, AttributeList Attrs,
                              unsigned NumParams, FlatTypes &Types) {
  for (unsigned ArgNo = 0; ArgNo < NumParams; ++ArgNo)
    for (Attribute::AttrKind K :
         {Attribute::ByVal, Attribute::StructRet, Attribute::ByRef,
          Attribute::InAlloca, Attribute::Preallocated,
          Attribute::ElementType}) {
      Attribute A = Attrs.getParamAttr(ArgNo, K);
      if (!A.isValid() || !A.getValueAsType())
        continue;
      Type *T = Types.remapType(A.getValueAsType());
      if (T == A.getValueAsType())
        continue;
      Attrs = Attrs.removeParamAttribute(C, ArgNo, K);
      Attrs = Attrs.addParamAttribute(C, ArgNo, Attribute::get(C, K, T));
    }
  return Attrs;
}

/// Named metadata that names a replaced value (!{ptr @kernel, ...}) names
/// its replacement.
void remapNamedMetadata(Module &M, ValueToValueMapTy &VMap) {
  for (NamedMDNode &N : M.named_metadata())
    for (unsigned I = 0; I < N.getNumOperands(); ++I) {
      MDNode *Node = N.getOperand(I);
      SmallVector<Metadata *, 8> Ops(Node->op_begin(), Node->op_end());
      bool Changed = false;
      for (Metadata *&Op : Ops)
        if (auto *VM = dyn_cast_or_null<ValueAsMetadata>(Op))
          if (auto It = VMap.find(VM->getValue()); It != VMap.end()) {
            Op = ValueAsMetadata::get(It->second);
            Changed = true;
          }
      if (Changed)
        N.setOperand(I, MDNode::get(M.getContext(), Ops));
    }
}

CallingConv::ID flatConv(CallingConv::ID CC) {
  return CC == CallingConv::SPIR_FUNC ? CallingConv::C : CC;
}

} // namespace

PreservedAnalyses FlattenAddressSpacesPass::run(Module &M,
                                                ModuleAnalysisManager &) {
  LLVMContext &C = M.getContext();
  FlatTypes Types(C);
  ValueToValueMapTy VMap;
  DropSpaceCasts Casts(VMap, Types);
  bool Changed = false;

  // Variables whose type or space changes get a flat copy.
  SmallVector<GlobalVariable *, 8> OldGlobals;
  for (GlobalVariable &G : M.globals())
    if (G.getAddressSpace() != 0 ||
        Types.remapType(G.getValueType()) != G.getValueType())
      OldGlobals.push_back(&G);
  for (GlobalVariable *G : OldGlobals) {
    auto *N = new GlobalVariable(
        M, Types.remapType(G->getValueType()), G->isConstant(), G->getLinkage(),
        nullptr, "", nullptr, G->getThreadLocalMode(),
        /*AddressSpace=*/0, G->isExternallyInitialized());
    N->takeName(G);
    N->copyAttributesFrom(G);
    N->copyMetadata(G, 0);
    if (G->getAddressSpace() == 3)
      N->setMetadata(WorkGroupVariableMetadata, MDNode::get(C, {}));
    VMap[G] = N;
  }

  // Every defined function, and each declaration whose type changes, gets
  // a flat copy; overloaded intrinsics the declaration of their new types.
  SmallVector<Function *, 16> OldFns, Intrinsics;
  for (Function &F : M) {
    auto *FT = cast<FunctionType>(Types.remapType(F.getFunctionType()));
    if (F.isIntrinsic()) {
      if (FT != F.getFunctionType())
        Intrinsics.push_back(&F);
      continue;
    }
    if (!F.isDeclaration() || FT != F.getFunctionType())
      OldFns.push_back(&F);
    else if (F.getCallingConv() == CallingConv::SPIR_FUNC) {
      F.setCallingConv(CallingConv::C);
      Changed = true;
    }
  }
  for (Function *F : Intrinsics) {
    auto *FT = cast<FunctionType>(Types.remapType(F->getFunctionType()));
    SmallVector<Type *, 4> Overloads;
    if (!Intrinsic::getIntrinsicSignature(F->getIntrinsicID(), FT, Overloads))
      continue; // left as it is: the verifier names it
    VMap[F] = Intrinsic::getDeclaration(&M, F->getIntrinsicID(), Overloads);
    OldFns.push_back(F);
  }
  for (Function *F : OldFns) {
    if (F->isIntrinsic())
      continue;
    auto *FT = cast<FunctionType>(Types.remapType(F->getFunctionType()));
    Function *N = Function::Create(FT, F->getLinkage(), 0, "", &M);
    N->takeName(F);
    N->copyAttributesFrom(F);
    VMap[F] = N;
  }
  for (Function *F : OldFns) {
    if (F->isIntrinsic())
      continue;
    auto *N = cast<Function>(VMap[F]);
    if (!F->isDeclaration()) {
      auto NewArg = N->arg_begin();
      for (Argument &A : F->args()) {
        NewArg->setName(A.getName());
        VMap[&A] = &*NewArg++;
      }
      SmallVector<ReturnInst *, 8> Returns;
      CloneFunctionInto(N, F, VMap, CloneFunctionChangeType::GlobalChanges,
                        Returns, "", nullptr, &Types, &Casts);
    }
    N->setAttributes(
        remapAttributes(C, F->getAttributes(), N->arg_size(), Types));
    N->setCallingConv(flatConv(F->getCallingConv()));
    LLVM_DEBUG(dbgs() << "flattened " << N->getName() << "\n");
  }

  // Initializers name the copies (also those of unchanged variables:
  // llvm.used, constructor lists).
  for (GlobalVariable &G : M.globals()) {
    if (!G.hasInitializer() || VMap.count(&G))
      continue;
    G.setInitializer(
        MapValue(G.getInitializer(), VMap, RF_None, &Types, &Casts));
  }
  for (GlobalVariable *G : OldGlobals)
    if (G->hasInitializer())
      cast<GlobalVariable>(VMap[G])->setInitializer(
          MapValue(G->getInitializer(), VMap, RF_None, &Types, &Casts));
  remapNamedMetadata(M, VMap);

  // The originals go.
  for (Function *F : OldFns)
    F->dropAllReferences();
  for (GlobalVariable *G : OldGlobals)
    G->dropAllReferences();
  for (Function *F : OldFns) {
    F->replaceAllUsesWith(PoisonValue::get(F->getType()));
    F->eraseFromParent();
  }
  for (GlobalVariable *G : OldGlobals) {
    G->replaceAllUsesWith(PoisonValue::get(G->getType()));
    G->eraseFromParent();
  }

  // What the flat types leave: casts between one type, spir_func calls.
  for (Function &F : M)
    for (BasicBlock &BB : F)
      for (Instruction &I : make_early_inc_range(BB)) {
        if (auto *Cast = dyn_cast<AddrSpaceCastInst>(&I);
            Cast && Cast->getSrcTy() == Cast->getDestTy()) {
          Cast->replaceAllUsesWith(Cast->getOperand(0));
          Cast->eraseFromParent();
        } else if (auto *Call = dyn_cast<CallBase>(&I)) {
          Call->setCallingConv(flatConv(Call->getCallingConv()));
        }
      }
  Changed |= !OldFns.empty() || !OldGlobals.empty();
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace clcpu::compiler
