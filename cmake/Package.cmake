# The Debian package (CPack's DEB generator): `cpack -G DEB` in the build
# directory, or scripts/package.sh, makes clcpu_<version>_<arch>.deb holding
# the driver under the multiarch library directory, its .icd file in
# /etc/OpenCL/vendors and the documentation. The version is the project's
# (project() in CMakeLists.txt); Depends is computed from the libraries the
# driver links (dpkg-shlibdeps), plus an ICD loader.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME clcpu)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CLCPU_PACKAGE_MAINTAINER
  "clcpu developers <clcpu-developers@users.noreply.github.com>"
  CACHE STRING "Maintainer field of the Debian package")
set(CPACK_PACKAGE_CONTACT "${CLCPU_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "OpenCL 3.0 driver for CPUs")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "clcpu is an installable client driver (ICD) that runs OpenCL C kernels on\n\
the CPU: Clang/LLVM compiles each kernel into a work-group function\n\
vectorized across work-items, and a thread pool pinned to the cores the\n\
process may use runs the work-groups. Applications reach it through the\n\
OpenCL ICD loader.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "ocl-icd-libopencl1 | opencl-icd-loader")
# IL programs (clCreateProgramWithIL) run the SPIR-V translator as a
# separate program (compiler/Spirv.cpp); OpenCL C works without it.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "llvm-spirv-15")
set(CPACK_DEBIAN_PACKAGE_PROVIDES "opencl-icd")
set(CPACK_STRIP_FILES ON)
# The driver component only: the .icd file is the maintainer scripts' (see
# packaging/postinst).
set(CPACK_INSTALL_CMAKE_PROJECTS "${CMAKE_BINARY_DIR};clcpu;driver;/")
foreach(_script postinst postrm triggers)
  configure_file(${CMAKE_SOURCE_DIR}/packaging/${_script}
    ${CMAKE_BINARY_DIR}/packaging/${_script} @ONLY
    FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
    GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
endforeach()
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
  "${CMAKE_BINARY_DIR}/packaging/postinst;${CMAKE_BINARY_DIR}/packaging/postrm;${CMAKE_BINARY_DIR}/packaging/triggers")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# Only what the install rules name: no build of the benchmarks, tests and
# examples first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
# Debian's changelog.gz (the format dpkg-parsechangelog reads) names the
# release; the project's own CHANGELOG.md beside it holds the changes. Both
# compressed reproducibly (no name or time stamp in the gzip header).
# Dated by CHANGELOG.md's modification time, so that configuring again
# leaves the file (and the package) unchanged.
file(TIMESTAMP ${CMAKE_SOURCE_DIR}/CHANGELOG.md _date
  "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog CONTENT
  "clcpu (${PROJECT_VERSION}) unstable; urgency=medium\n\n\
  * clcpu ${PROJECT_VERSION}; the changes are in CHANGELOG.md.gz.\n\n\
 -- ${CLCPU_PACKAGE_MAINTAINER}  ${_date}\n")
add_custom_command(
  OUTPUT ${CMAKE_BINARY_DIR}/packaging/changelog.gz
    ${CMAKE_BINARY_DIR}/packaging/CHANGELOG.md.gz
  COMMAND gzip -n -9 -c ${CMAKE_BINARY_DIR}/packaging/changelog >
    ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  COMMAND gzip -n -9 -c ${CMAKE_SOURCE_DIR}/CHANGELOG.md >
    ${CMAKE_BINARY_DIR}/packaging/CHANGELOG.md.gz
  DEPENDS ${CMAKE_SOURCE_DIR}/CHANGELOG.md
    ${CMAKE_BINARY_DIR}/packaging/changelog)
add_custom_target(clcpu_changelog ALL
  DEPENDS ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
add_dependencies(clcpu clcpu_changelog)
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz
  ${CMAKE_BINARY_DIR}/packaging/CHANGELOG.md.gz
  DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT driver)
include(CPack)
