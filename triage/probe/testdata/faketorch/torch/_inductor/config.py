max_autotune = False
freezing = False
fallback_random = False
graph_partition = False


class triton:
    cudagraphs = False
