/*
 * servers/lib/stdio_proto.h - standard input and output over a link.
 *
 * A process the controller creates gets, in slot LINK_STDIO, a link to the
 * controller's agent on its node (servers/ctld), as the Berkeley DPM's
 * meterdaemon gave each process a socket for its standard I/O (the DPM paper
 * §3.5.2).  Both requests are CALLs, so a writer is held back while the
 * agent's buffer is full and a reader waits for input:
 *
 *   STDIO_WRITE  words: op; then the bytes.   Reply: int32 0 or an E_* code.
 *   STDIO_READ   words: op, most bytes wanted. Reply: 1..most bytes, or no
 *                bytes at the end of the input.
 *
 * The op values are far from every kernel request kind (enum kreq), so a
 * process whose slot 3 is a kernel link (pm, init, ctld) gets E_BADREQ
 * rather than a request it did not mean; the program library then uses
 * the console (servers/lib/newlib_glue.c).
 */
#ifndef DPM_STDIO_PROTO_H
#define DPM_STDIO_PROTO_H
#include <stdint.h>

#define STDIO_WRITE 0x53494f57u /* "WOIS" */
#define STDIO_READ  0x53494f52u /* "ROIS" */

#define STDIO_HEADER 8u          /* op and, for READ, the count       */
#define STDIO_WRITE_MAX (4096u - 4u) /* bytes in one WRITE (MSG_MAX - op) */

#endif
