// A fixture for the test of lab_literate: a tiny program that uses every part of
// the literate convention once.
//
// A second paragraph, with a formula: \f$s = \sum_i x_i\f$.

// @cond SKIP
#include <cstdio>
// @endcond

// @sect3{Summing a vector}

// The sum of the first n entries.
/// @param x the entries
/// @param n how many
/// @param s where the sum goes
void sum(const double *x, int n, double *s)
{
  // @exercise{sum_vector, 2}
  // Learn to accumulate in a local variable: add up the n entries of x and
  // store the sum where s points.
  //
  // An empty comment line ends the task; this paragraph is prose of the region.
  double t = 0; // the running sum

  for (int i = 0; i < n; ++i)
    t += x[i];
  /* a C comment ends with */
  *s = t;
  // @end-exercise
}

// @sect3{Summing a vector}

// The same title again needs a label of its own.

int main()
{
  const double x[] = {1, 2, 3};
  double       s;
  sum(x, 3, &s);
  // A comment inside a function is prose too, and splits the code.
  const char *ends = "*/ and /*";
  std::printf("%g %s\n", s,
              ends);
}
