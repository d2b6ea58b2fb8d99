// Nothing to compile: the header is this module. A C target needs one source file.
#include "CMalloc.h"
