# tests/unit/build.mk - checks of the source tree itself (test_layers: the
# contracts, the layers and the absence of include circles).
$(eval $(call unit_test,test_layers,tests/unit/test_layers.c))
