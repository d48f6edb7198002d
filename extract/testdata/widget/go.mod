module example.com/acme/widget

go 1.22
