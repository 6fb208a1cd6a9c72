/*
 * hostfilter/filter/shed.h - what a listening service (dpm filter, the
 * control hub) does when accept() fails for want of descriptors or
 * memory: a connection left waiting keeps the listener readable, and poll
 * would wake at once for ever.  A spare descriptor, held open for this,
 * is given up to take the connection and close it at once.
 */
#ifndef DPM_SHED_H
#define DPM_SHED_H

/* The error accept() gave is one of running out (EMFILE, ENFILE, ENOBUFS,
 * ENOMEM): shed the waiting connection with *spare (opened again after) and
 * return 1; any other error: 0, nothing done. */
int accept_shed(int listener, int *spare, int err);

/* The spare descriptor (/dev/null), or -1. */
int spare_open(void);

/* What a failed accept() means for the service, by its errno. */
enum accept_failure {
	ACCEPT_AGAIN,    /* nothing waits, the connection went, or a passing
	                    error (EAGAIN, EINTR, ECONNABORTED, EPROTO, EPERM,
	                    network errors, ...): poll again */
	ACCEPT_SHED,     /* out of descriptors or memory: accept_shed */
	ACCEPT_BROKEN,   /* the listening socket itself is unusable (EBADF,
	                    EINVAL, ENOTSOCK, EOPNOTSUPP, EFAULT): stop
	                    listening, keep serving the connections held */
};
enum accept_failure accept_failure(int err);

#endif
