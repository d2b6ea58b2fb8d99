// glibc's allocator settings (<malloc.h>), which the Glibc module leaves out: `mallopt` and
// its parameters, for `Allocator` in the kanban executable.
#include <malloc.h>
