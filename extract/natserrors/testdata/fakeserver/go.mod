module example.com/acme/fakeserver

go 1.22
