// The exercises blanked in this copy of the course (the student edition).
//
// `make student` replaces the code of the course's exercises by a stub that does
// nothing, and writes their names into the list below (common/src/exercises.cpp). The
// stub cannot say anything itself (in a kernel it runs on the GPU, and a blanked host
// function may never be reached), so the checks say it: when a check fails,
// lab::Checks::print_summary and the test programs' main functions print one line
// "exercise NAME not done" for every blanked exercise, and so does lab::run_program
// when the work ends in an error (an unrecorded CUDA event, say). In the course edition the
// list is empty and nothing is printed.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace lab
{
  // The names of the exercises blanked in this copy: empty in the course edition.
  const std::vector<std::string> &blanked_exercises();

  // One line "exercise NAME not done" per blanked exercise; nothing when none is.
  void print_exercises_not_done(std::ostream &out);
} // namespace lab
