#ifndef LENS_CZLIB_SHIM_H
#define LENS_CZLIB_SHIM_H
#include <zlib.h>
#endif
