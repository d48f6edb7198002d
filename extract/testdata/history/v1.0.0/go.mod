module example.com/acme/lever

go 1.22
