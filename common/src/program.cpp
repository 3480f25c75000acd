#include <lab/exercise.h>
#include <lab/program.h>

#include <cstdio>
#include <iostream>

namespace lab
{
  int run_program(const std::string &program, const std::function<int()> &body)
  {
    // The console lines printed so far go out before the error, so that the error
    // appears after them, where it happened.
    try
      {
        return body();
      }
    catch (const bad_input &error)
      {
        std::fflush(stdout);
        std::cerr << program << ": error: " << error.what() << '\n';
        return 2;
      }
    catch (const std::exception &error)
      {
        std::fflush(stdout);
        std::cerr << program << ": error: " << error.what() << '\n';
        // In the student edition a blanked exercise can end the work with an error
        // rather than a failed check (events never recorded, say): name the exercises
        // not done here too. In the course edition this prints nothing.
        print_exercises_not_done(std::cerr);
        return 1;
      }
  }
} // namespace lab
