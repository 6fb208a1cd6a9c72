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

int accept_shed(int listener, int *spare, int err)
{
	if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM)
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
