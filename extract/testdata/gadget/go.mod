module example.com/acme/gadget

go 1.22

require example.com/acme/widget v1.2.0
