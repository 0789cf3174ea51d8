# Teaching: stepping, pictures and lectures (lectures/).
# Every lesson's ```console commands are run and compared with the lesson.
add_executable(lecture_runner ${CMAKE_SOURCE_DIR}/tests/lectures/lecture_runner.cpp)
# Lessons are the numbered files; lectures/README.md is the course outline.
file(GLOB LANELAB_LECTURES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lectures/[0-9]*.md)
foreach(lesson ${LANELAB_LECTURES})
  get_filename_component(lesson_name ${lesson} NAME_WE)
  add_test(NAME lecture.${lesson_name}
    COMMAND lecture_runner $<TARGET_FILE:lanelab> ${lesson}
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
endforeach()

# The lecture diagrams are Graphviz sources kept in the repository: each renders.
find_program(LANELAB_DOT dot)
file(GLOB LANELAB_DIAGRAMS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/lectures/diagrams/*.dot)
if(LANELAB_DOT)
  foreach(diagram ${LANELAB_DIAGRAMS})
    get_filename_component(diagram_name ${diagram} NAME_WE)
    add_test(NAME diagram.${diagram_name} COMMAND ${LANELAB_DOT} -Tsvg -o /dev/null ${diagram})
  endforeach()
endif()

# The stepping page in headless Chromium: load, step forward and back, screenshot.
add_test(NAME step.html_page_in_chromium
  COMMAND ${CMAKE_COMMAND} -DLANELAB=$<TARGET_FILE:lanelab> -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
          -DWORK_DIR=${CMAKE_BINARY_DIR}/step_html_test -P ${CMAKE_SOURCE_DIR}/tests/lectures/html_page_test.cmake)
set_tests_properties(step.html_page_in_chromium PROPERTIES SKIP_RETURN_CODE 77)
