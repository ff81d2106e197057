# ptxdvfs-config.cmake - find_package(ptxdvfs) for an installed ptxdvfs: the program and
# ptxdvfs_add_dvfs_hints(). Installed in <prefix>/lib/cmake/ptxdvfs/.
get_filename_component(_ptxdvfs_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
find_program(PTXDVFS_EXECUTABLE ptxdvfs HINTS "${_ptxdvfs_prefix}/bin" NO_DEFAULT_PATH)
find_program(PTXDVFS_EXECUTABLE ptxdvfs)
unset(_ptxdvfs_prefix)
if(NOT PTXDVFS_EXECUTABLE)
  set(ptxdvfs_FOUND FALSE)
  set(ptxdvfs_NOT_FOUND_MESSAGE "the ptxdvfs program is not beside this package nor on PATH")
  return()
endif()
include("${CMAKE_CURRENT_LIST_DIR}/PtxDvfs.cmake")
