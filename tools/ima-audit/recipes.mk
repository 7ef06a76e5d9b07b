# SPDX-License-Identifier: GPL-2.0-only
#
# The two recipes every object and binary of ima-audit and ima-attest is
# made by (their Makefiles include this file), whatever the compiler and
# the sanitizer: quiet unless V=1, the command itself with V=1.
#
#   $(call compile,COMPILER FLAGS)   $< into $@ (its directory made)
#   $(call link,COMPILER FLAGS,LIBS) $^ into $@

define compile
	@mkdir -p $(@D)
	@$(if $(Q),echo "  CC      $@")
	$(Q)$(1) -c $< -o $@
endef

define link
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(1) -o $@ $^ $(2)
endef
