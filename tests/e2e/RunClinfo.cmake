# Spec: cl_khr_icd. clinfo, through the system loader, must list the clcpu
# platform and its CPU device and answer every query without an error line.
execute_process(COMMAND ${CLINFO} OUTPUT_VARIABLE Out ERROR_VARIABLE Err
  RESULT_VARIABLE Rc)
if(NOT Rc EQUAL 0)
  message(FATAL_ERROR "clinfo exited with ${Rc}\n${Out}\n${Err}")
endif()
if(NOT Out MATCHES "Platform Name +clcpu")
  message(FATAL_ERROR "clinfo does not list platform clcpu:\n${Out}")
endif()
if(NOT Out MATCHES "Device Type +CPU")
  message(FATAL_ERROR "clinfo lists no CPU device:\n${Out}")
endif()
string(REPLACE "\n" ";" Lines "${Out}")
set(Bad "")
foreach(L IN LISTS Lines)
  # clinfo reports failed queries as <function: CL_ERROR_NAME> or with the
  # error's name; "Error Correction support" is a device property, not an error.
  if(L MATCHES "CL_INVALID|CL_OUT_OF|CL_DEVICE_NOT|<[a-zA-Z]+.*>|[Ee]rror" AND
     NOT L MATCHES "Error Correction support")
    string(APPEND Bad "${L}\n")
  endif()
endforeach()
if(Bad OR Err)
  message(FATAL_ERROR "clinfo printed error lines:\n${Bad}${Err}")
endif()
execute_process(COMMAND ${CLINFO} -l OUTPUT_VARIABLE List RESULT_VARIABLE Rc)
if(NOT Rc EQUAL 0 OR NOT List MATCHES "Platform #[0-9]+: clcpu")
  message(FATAL_ERROR "clinfo -l does not list clcpu:\n${List}")
endif()
# cl_khr_command_buffer_mutable_dispatch: CL_DEVICE_MUTABLE_DISPATCH_-
# CAPABILITIES_KHR answers with every field. (clinfo 3.0.23.01.25 asks for it
# only where a device lists the extension's former name,
# cl_khr_mutable_dispatch; -a asks regardless.)
execute_process(COMMAND ${CLINFO} --raw -a --prop
  CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR
  OUTPUT_VARIABLE Mut ERROR_VARIABLE MutErr RESULT_VARIABLE Rc)
if(NOT Rc EQUAL 0 OR MutErr OR Mut MATCHES "CL_INVALID|<" OR NOT Mut MATCHES
   "GLOBAL_OFFSET_KHR [|] CL_MUTABLE_DISPATCH_GLOBAL_SIZE_KHR [|] CL_MUTABLE_DISPATCH_LOCAL_SIZE_KHR [|] CL_MUTABLE_DISPATCH_ARGUMENTS_KHR [|] CL_MUTABLE_DISPATCH_EXEC_INFO_KHR")
  message(FATAL_ERROR
    "clinfo's CL_DEVICE_MUTABLE_DISPATCH_CAPABILITIES_KHR:\n${Mut}${MutErr}")
endif()
message(STATUS "clinfo lists clcpu with no error line")
