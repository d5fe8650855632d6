#ifndef LENS_COPENBLAS_SHIM_H
#define LENS_COPENBLAS_SHIM_H
#include <cblas.h>
#endif
