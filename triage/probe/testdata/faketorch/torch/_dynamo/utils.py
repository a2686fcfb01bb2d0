import collections

counters = collections.defaultdict(collections.Counter)
compilation_time_metrics = {}


def compile_times(repr="str", aggregate=False):
    # Same shape as torch._dynamo.utils.compile_times(repr="csv"): (names, formatted values).
    def fmt(values):
        if aggregate:
            return "%.6f" % sum(values)
        return ", ".join("%.6f" % v for v in values)

    if repr == "csv":
        return list(compilation_time_metrics.keys()), [fmt(v) for v in compilation_time_metrics.values()]
    return "TorchDynamo compilation metrics:\n" + "\n".join(
        "%s %s" % (k, fmt(v)) for k, v in compilation_time_metrics.items()
    )
