#pragma once
// For tests that write files: a fresh folder of their own, gone when the test is.

#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

namespace lab_test
{
  /// A fresh folder under the system's temporary folder, removed with everything in
  /// it when the object goes out of scope. Its name holds the process id and a count,
  /// so that test programs running side by side (ctest -j) never share one.
  class TempDir
  {
  public:
    TempDir()
    {
      static int counter = 0;
      path_ = std::filesystem::temp_directory_path() /
              ("lab-tests-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
      std::filesystem::remove_all(path_);
      std::filesystem::create_directories(path_);
    }
    ~TempDir()
    {
      std::error_code ignored;
      std::filesystem::remove_all(path_, ignored);
    }
    TempDir(const TempDir &) = delete;
    TempDir &operator=(const TempDir &) = delete;

    const std::filesystem::path &path() const { return path_; }
    std::filesystem::path operator/(const std::string &name) const { return path_ / name; }

  private:
    std::filesystem::path path_;
  };
} // namespace lab_test
