/*
 * kernel/devices.c - routes the device requests of kernel links (kinds
 * KR_DEVICE_FIRST..KR_DEVICE_LAST) to the service that owns each range, so
 * kservice.c knows only that the range exists and every device service
 * lives in its own file.
 */
#include "kernel.h"
#include "disk.h"
#include "hostgate.h"

int32_t kdevice_service(struct proc *p, const struct link *via, uint32_t kind, const uint8_t *req,
			uint32_t len, const struct link *passed, uint8_t *reply, uint32_t *reply_len,
			struct link *reply_link)
{
	if (kind >= KR_DISK_FIRST && kind <= KR_DISK_LAST)
		return disk_service(p, via, kind, req, len, passed, reply, reply_len, reply_link);
	if (kind >= KR_HOSTGATE_FIRST && kind <= KR_HOSTGATE_LAST)
		return hostgate_service(p, via, kind, req, len, passed, reply, reply_len, reply_link);
	/* 56..63: further device services go here */
	return E_BADREQ;
}
