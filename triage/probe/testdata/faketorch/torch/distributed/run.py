# Stands in for torchrun's launcher module: a process that imported it and has no RANK is the
# launcher, not a rank.
