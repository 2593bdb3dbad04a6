#ifndef FOOTLIGHT_CHIREDIS_SHIM_H
#define FOOTLIGHT_CHIREDIS_SHIM_H

// Debian installs hiredis under its own directory; its headers include each other
// by relative path.
#include <hiredis/hiredis.h>

#endif
