#ifndef FOOTLIGHT_CLIBWEBSOCKETS_SHIM_H
#define FOOTLIGHT_CLIBWEBSOCKETS_SHIM_H

#include <libwebsockets.h>
#include <sys/syscall.h>
#include <unistd.h>

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

// LWS_WRITE_CLOSE: lws_write writes a close frame for it. The public header leaves it
// out of enum lws_write_protocol (lws_close_reason normally sends close frames), but the
// server sends its close frame by hand to keep the socket open for the peer's answer.
static inline enum lws_write_protocol footlight_lws_write_close(void) {
    return (enum lws_write_protocol)4;
}

// The calling thread's kernel id (SYS_gettid is a macro; glibc's gettid() is not
// visible to Swift): the loop watchdog reads a loop thread's state from /proc with it.
static inline int footlight_thread_id(void) {
    return (int)syscall(SYS_gettid);
}

// A timer serviced on a context's loop thread: the scheduler entry libwebsockets
// links into its list, first so that the pointer its callback gets is the timer's,
// and the object it is for.
typedef struct footlight_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
} footlight_timer;

// LWS_TO_KILL_ASYNC is a macro: lws_set_timeout closes the connection on the next
// service pass when given it.
static inline int footlight_lws_kill_async(void) {
    return LWS_TO_KILL_ASYNC;
}

#endif
