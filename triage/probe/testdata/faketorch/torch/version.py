cuda = "12.8"
