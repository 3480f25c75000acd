// An exercise with the name of one in step-0.cu: each file alone is right, and
// lab_literate exercises must refuse the two together.
void g()
{
  // @exercise{sum_vector, 1}
  // The task.
  int y = 0;
  // @end-exercise
}
