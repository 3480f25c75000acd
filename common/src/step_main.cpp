#include <lab/lapack.h>
#include <lab/program.h>
#include <lab/step_main.h>

#include <cstdio>
#include <iostream>

namespace lab
{
  int run_step(const std::string &program, const std::string &headline, bool cpu_only,
               const std::function<void(const DeviceInfo &device, Checks &checks)> &work,
               const std::function<void()> &refuse_bad_input)
  {
    return run_program(program, [&] {
      std::printf("%s\n", headline.c_str());
      if (refuse_bad_input)
        refuse_bad_input();
      const DeviceInfo device = select_device(cpu_only);
      Checks checks;
      work(device, checks);
      std::printf("\n");
      checks.print_summary(std::cout);
      return checks.exit_code();
    });
  }

  void print_cpu_library_line(const std::string &library, const std::string &role,
                              const std::string &without)
  {
    std::printf("%s: %s\n", library.c_str(),
                have_lapack() ? role.c_str() : ("not installed (" + without + ")").c_str());
  }
} // namespace lab
