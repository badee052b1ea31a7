#ifndef SEGUE_CGBM_SHIM_H
#define SEGUE_CGBM_SHIM_H
#include <gbm.h>
static const unsigned int SEGUE_GBM_FORMAT_ARGB8888 = GBM_FORMAT_ARGB8888;
static const unsigned int SEGUE_GBM_FORMAT_XRGB8888 = GBM_FORMAT_XRGB8888;
#endif
