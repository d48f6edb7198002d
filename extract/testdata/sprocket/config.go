package sprocket

import "strconv"

// Config is how a machine is set up.
type Config struct {
	// Speed is the turns per second; 0 stalls the machine.
	Speed int
	// strict refuses hot motors.
	strict bool
}

// Parse reads a configuration from its keys.
func Parse(kv map[string]string) (Config, error) {
	var cfg Config
	for k, v := range kv {
		switch k {
		case "max_speed":
			n, err := strconv.Atoi(v)
			if err != nil {
				return cfg, err
			}
			cfg.Speed = n
		case "strict_motor":
			cfg.strict = v == "true"
		}
	}
	return cfg, nil
}
