module example.com/acme/fakeclient

go 1.22
