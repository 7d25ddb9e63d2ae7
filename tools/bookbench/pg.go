package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"

	"lineage/internal/freeport"
)

// pgCluster is a throwaway PostgreSQL cluster in a temp directory (as
// internal/store/storetest starts one for tests), for -pg. Unlike the tests' cluster it
// keeps fsync on: a benchmark of writes should pay for durable commits.
type pgCluster struct {
	dir, ctl, as string
	URL          string
}

func startPG() (*pgCluster, error) {
	initdb, err := exec.LookPath("initdb")
	if err != nil {
		m, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
		if len(m) == 0 {
			return nil, errors.New("initdb not found: install the Debian package 'postgresql'")
		}
		initdb = m[len(m)-1]
	}
	c := &pgCluster{ctl: filepath.Join(filepath.Dir(initdb), "pg_ctl")}
	if _, err := os.Stat(c.ctl); err != nil {
		if c.ctl, err = exec.LookPath("pg_ctl"); err != nil {
			return nil, err
		}
	}
	if c.dir, err = os.MkdirTemp("", "bookbench-pg-"); err != nil {
		return nil, err
	}
	if os.Geteuid() == 0 { // initdb refuses root
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, errors.New("running as root without a 'postgres' user for initdb")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(c.dir, uid, gid); err != nil {
			return nil, err
		}
		c.as = "postgres"
	}
	port, err := freeport.Pick()
	if err != nil {
		return nil, err
	}
	data := filepath.Join(c.dir, "data")
	if out, err := c.run(initdb, "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c max_connections=100", port, c.dir)
	if out, err := c.run(c.ctl, "-D", data, "-l", filepath.Join(c.dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		return nil, fmt.Errorf("pg_ctl start: %v\n%s", err, out)
	}
	c.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	return c, nil
}

func (c *pgCluster) run(name string, args ...string) ([]byte, error) {
	cmd := exec.Command(name, args...)
	if c.as != "" {
		cmd = exec.Command("runuser", append([]string{"-u", c.as, "--", name}, args...)...)
	}
	return cmd.CombinedOutput()
}

func (c *pgCluster) stop() {
	c.run(c.ctl, "-D", filepath.Join(c.dir, "data"), "-m", "fast", "-w", "stop")
	os.RemoveAll(c.dir)
}
