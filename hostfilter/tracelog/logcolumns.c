/*
 * hostfilter/tracelog/logcolumns.c - the map from a log record's fields to the
 * trace CSV's columns, per trace type (see logcolumns.h).
 */
#include "logcolumns.h"

#include <stddef.h>
#include <strings.h>

static const struct log_columns maps[] = {
	{ "SEND", "fromTask", "toTask", "length", "sendLink", "code", "passLink", NULL, NULL, NULL },
	{ "RECEIVECALL", NULL, "toTask", NULL, NULL, NULL, NULL, "queueLen", NULL, NULL },
	{ "RECEIVE", "fromTask", "toTask", "length", NULL, "code", "passLink", "queueLen", NULL,
	  NULL },
	{ "QUEUED", "fromTask", "toTask", "length", NULL, "code", NULL, "queueLen", NULL, NULL },
	{ "CREATELINK", "task", "toTask", "dataLen", "link", "code", NULL, NULL, NULL, NULL },
	{ "DESTROYLINK", "task", "toTask", "dataLen", "link", "code", NULL, NULL, NULL, NULL },
	{ "MOVEDATA", "fromTask", "toTask", "length", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "CREATEPROCESS", "parentTask", "childTask", NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "TERMPROCESS", NULL, "childTask", NULL, NULL, NULL, NULL, NULL, "reason", NULL },
	{ "STARTPROCESS", NULL, "childTask", NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "STOPPROCESS", NULL, "childTask", NULL, NULL, NULL, NULL, NULL, NULL, NULL },
	{ "DROPPED", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "count" },
	{ "MARK", NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, "token" },
};

const struct log_columns *log_columns_of(const char *type_name)
{
	static const struct log_columns none;
	for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++)
		if (!strcasecmp(maps[i].type, type_name))
			return &maps[i];
	return &none;
}
