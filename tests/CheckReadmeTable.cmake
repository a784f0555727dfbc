# Fails when README.md's configuration table differs from what
# runtime/Config.def generates (regenerate with build/tests/clcpu_config_table).
execute_process(COMMAND ${TOOL} OUTPUT_VARIABLE Expected RESULT_VARIABLE Rc)
if(NOT Rc EQUAL 0)
  message(FATAL_ERROR "clcpu_config_table failed: ${Rc}")
endif()
file(READ ${README} Readme)
string(FIND "${Readme}" "${Expected}" Pos)
if(Pos EQUAL -1)
  message(FATAL_ERROR "README.md's variable table is out of date; expected:\n${Expected}")
endif()
