import os, time, torch
if os.environ.get("SLEEP"): time.sleep(int(os.environ["SLEEP"]))
def f(x):
    y = x.sin()
    if os.path.exists("/tmp/explore-cmp/BREAK"):
        print("side effect")
    return y.cos()
cf = torch.compile(f)
t=time.time()
for n in (4, 8, 16):
    cf(torch.randn(n))
print("metric:", round(time.time()-t, 3))
