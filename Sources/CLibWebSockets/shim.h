#ifndef FOOTLIGHT_CLIBWEBSOCKETS_SHIM_H
#define FOOTLIGHT_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>

// LWS_PRE expands through _LWS_PAD(...), a function-like macro Swift cannot import.
// Every buffer passed to lws_write needs this many bytes of headroom.
static inline size_t footlight_lws_pre(void) {
    return LWS_PRE;
}

// CONTEXT_PORT_NO_LISTEN(_SERVER) are macros; exported as plain ints.
static inline int footlight_lws_port_no_listen(void) {
    return CONTEXT_PORT_NO_LISTEN;
}

// A server vhost that listens on nothing and only adopts sockets accepted elsewhere.
static inline int footlight_lws_port_no_listen_server(void) {
    return CONTEXT_PORT_NO_LISTEN_SERVER;
}

#endif
