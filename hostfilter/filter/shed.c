/*
 * hostfilter/filter/shed.c - shedding a connection that cannot be taken
 * (shed.h).
 */
#define _GNU_SOURCE /* accept4 */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "shed.h"

int spare_open(void)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

enum accept_failure accept_failure(int err)
{
	switch (err) {
	case EMFILE: case ENFILE: case ENOBUFS: case ENOMEM:
		return ACCEPT_SHED;
	case EBADF: case EINVAL: case ENOTSOCK: case EOPNOTSUPP: case EFAULT:
		return ACCEPT_BROKEN;
	default:
		return ACCEPT_AGAIN;
	}
}

int accept_shed(int listener, int *spare, int err)
{
	if (accept_failure(err) != ACCEPT_SHED)
		return 0;
	if (*spare >= 0) {
		close(*spare);
		int fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0)
			close(fd);
		*spare = spare_open();
	}
	return 1;
}
