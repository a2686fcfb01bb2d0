# A stand-in repro script: the bundle test checks it is packed.
print("step 1: 0.123 s")
