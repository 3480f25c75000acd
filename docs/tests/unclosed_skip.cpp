// A source whose boilerplate is never closed: lab_literate must refuse it.
// @cond SKIP
#include <cstdio>
