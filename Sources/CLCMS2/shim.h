#include <lcms2.h>

// The pixel formats Segue hands to lcms2. lcms2 spells them as macros built from shift macros, which Swift
// does not import, so they are repeated here as constants.
static const cmsUInt32Number CLCMS2_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number CLCMS2_TYPE_RGBA_16 = TYPE_RGBA_16;
static const cmsUInt32Number CLCMS2_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number CLCMS2_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number CLCMS2_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
static const cmsUInt32Number CLCMS2_TYPE_RGB_DBL = TYPE_RGB_DBL;
static const cmsUInt32Number CLCMS2_FLAGS_COPY_ALPHA = cmsFLAGS_COPY_ALPHA;
static const cmsUInt32Number CLCMS2_FLAGS_NOCACHE = cmsFLAGS_NOCACHE;
static const cmsUInt32Number CLCMS2_TYPE_GRAY_8 = TYPE_GRAY_8;
static const cmsUInt32Number CLCMS2_FLAGS_NOOPTIMIZE = cmsFLAGS_NOOPTIMIZE;
