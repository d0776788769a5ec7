/* The library's version (include/hilo/version.h). */
#include "hilo/version.h"

const char *hilo_version(void)
{
	return HILO_VERSION_STRING;
}
