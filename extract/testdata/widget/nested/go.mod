module example.com/acme/widget/nested

go 1.22
