#ifndef LENS_CTESSERACT_SHIM_H
#define LENS_CTESSERACT_SHIM_H
#include <tesseract/capi.h>
#include <leptonica/allheaders.h>
#endif
