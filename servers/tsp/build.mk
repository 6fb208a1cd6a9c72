# servers/tsp/build.mk - the TSP workload (docs/tsp.md): the controller
# `tsp`, its servers `tspserver` and the watchers `tspwatch`, plus host unit
# tests of the parts that need no DEMOS calls (branch and bound, the
# controller's search, the TSPLIB reader).
TSP_CORE := servers/tsp/instance.c servers/tsp/bnb.c
TSP_REFERENCE := tests/unit/test_tsp_reference.c

PROGRAMS += tsp tspserver tspwatch
tsp_SRCS := servers/tsp/tsp.c servers/tsp/servers.c servers/tsp/search.c servers/tsp/tsplib.c \
	servers/tsp/instance.c
tspserver_SRCS := servers/tsp/tspserver.c $(TSP_CORE)
tspwatch_SRCS := servers/tsp/tspwatch.c

$(eval $(call unit_test,test_tsp_bnb,tests/unit/test_tsp_bnb.c $(TSP_REFERENCE) $(TSP_CORE)))
$(eval $(call unit_test,test_tsp_search,tests/unit/test_tsp_search.c $(TSP_REFERENCE) \
	servers/tsp/search.c $(TSP_CORE)))
$(eval $(call unit_test,test_tsp_tsplib,tests/unit/test_tsp_tsplib.c servers/tsp/tsplib.c \
	$(TSP_CORE)))

# The tests include the TSP headers by name (t_tsp is in tests/guest/build.mk).
