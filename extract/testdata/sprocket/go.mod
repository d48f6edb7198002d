module example.com/acme/sprocket

go 1.22
