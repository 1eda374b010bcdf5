package toxiproxy

var Version = "git"
