#pragma once
/// @file
/// @brief The name of a floating-point type as the course prints it and names its
/// tables: "float" for float, "double" for double.

namespace lab
{
  /// "float" or "double": the precision a program runs in, as its console lines, its
  /// checks and its table files (cholesky_float.dat) name it.
  template <typename T>
  constexpr const char *precision_name()
  {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the course computes in float or double");
    return sizeof(T) == 4 ? "float" : "double";
  }
} // namespace lab
