// libclcpu.so is icd/, runtime/, compiler/, builtins/ and scheduler/ linked
// together (see the top-level CMakeLists.txt); the exported symbols live in
// icd/IcdEntry.cpp. This file only gives the shared library a source.
