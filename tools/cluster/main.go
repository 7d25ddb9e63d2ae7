// Command cluster is the harness of the several-instances tests (web/e2e/cluster.test.mjs)
// and of `make bench-cluster`: it starts a throwaway PostgreSQL (the one
// internal/store/storetest makes from the machine's initdb and pg_ctl), N `lineage
// serve` processes on that one database, each with a data folder of its own as
// separate machines would have, and tools/lb in front of them. Not part of the product.
//
// When everything answers, it prints one JSON line on standard output:
//
//	{"lb":"http://127.0.0.1:P","database_url":"postgres://…","instances":[{"url":…,"data":…,"log":…,"pid":…}],"lb_log":…}
//
// and then reads commands, one a line, answering each with one JSON line
// ({"ok":true,…} or {"error":"…"}):
//
//	kill N    SIGKILL instance N (a machine that dies), wait until it has exited
//	stop N    SIGTERM instance N (a graceful stop: it drains), wait until it has exited
//	start N   start instance N again on its port and data folder, wait until /readyz is 200
//	lineage ARGS…  run bin/lineage ARGS on the cluster's database (a command an
//	          operator runs on any machine), answering its output
//	sql QUERY  run a query on the cluster's database, answering its rows as strings
//	          (what the tests count: nothing lost, nothing twice)
//	mails     every mail file the instances wrote without SMTP: the bucket's mail/
//	          (with -s3) and each data folder's mail/, as {"where","name","text"}
//
// With -s3 (the default) the instances keep their files in one bucket of an S3 server
// in this process (internal/blob/blobtest: gofakes3 over HTTP, refusing anonymous
// reads), as production keeps them in MinIO or Garage; -s3=false leaves each instance
// its own data folder only.
//
// End of input, SIGINT or SIGTERM stop everything and remove the folders.
//
// The instances start one after the other, the first with the demo set (--demo) when
// -demo is given; with -together they all start at the same moment, as a rolling
// start or an autoscaler would do.
package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"lineage/internal/blob"
	"lineage/internal/blob/blobtest"
	"lineage/internal/freeport"
	"lineage/internal/store/storetest"
)

type instance struct {
	Index int    `json:"index"`
	URL   string `json:"url"`
	Data  string `json:"data"`
	Log   string `json:"log"`
	PID   int    `json:"pid"`

	port int
	cmd  *exec.Cmd
	done chan struct{}
}

type cluster struct {
	lineage, web, work string
	demo               bool
	env                []string
	dbURL, lbURL       string
	db                 *sql.DB
	s3                 *blobtest.Peer
	bucket             blob.Store // the instances' bucket, with -s3
	instances          []*instance
	lb                 *exec.Cmd
	lbLog              string
	mu                 sync.Mutex
}

type envFlag []string

func (e *envFlag) String() string { return strings.Join(*e, " ") }
func (e *envFlag) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("want KEY=VALUE, got %q", v)
	}
	*e = append(*e, v)
	return nil
}

func main() {
	c := &cluster{}
	var env envFlag
	n := flag.Int("instances", 2, "lineage serve processes")
	flag.StringVar(&c.lineage, "lineage", "bin/lineage", "the lineage binary")
	lbBin := flag.String("lb", "bin/lb", "the tools/lb binary")
	flag.StringVar(&c.web, "web", "web", "the web app directory (with build/ and node_modules/)")
	flag.StringVar(&c.work, "work", "", "a folder for data folders and logs (default: a new temporary one, removed at the end)")
	flag.BoolVar(&c.demo, "demo", true, "load the demo set (--demo)")
	together := flag.Bool("together", false, "start every instance at the same moment (the first one alone otherwise)")
	withS3 := flag.Bool("s3", true, "keep the instances' files in a bucket of an in-process S3 server")
	flag.Var(&env, "env", "KEY=VALUE added to every instance's environment (repeat)")
	flag.Parse()
	c.env = env
	if *withS3 {
		peer, err := blobtest.New()
		if err == nil {
			err = peer.CreateBucket("lineage")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "cluster: S3 server:", err)
			os.Exit(1)
		}
		defer peer.Close()
		c.s3 = peer
		env := peer.Env("lineage", "site")
		for k, v := range env {
			c.env = append(c.env, k+"="+v)
		}
		bucket, err := blob.Open(context.Background(), env["LINEAGE_STORAGE_URL"], "", func(k string) string { return env[k] })
		if err != nil {
			fmt.Fprintln(os.Stderr, "cluster: the bucket:", err)
			os.Exit(1)
		}
		c.bucket = bucket
	}
	if err := c.run(*n, *lbBin, *together); err != nil {
		fmt.Fprintln(os.Stderr, "cluster:", err)
		os.Exit(1)
	}
}

func (c *cluster) run(n int, lbBin string, together bool) (err error) {
	if n < 1 {
		return errors.New("-instances must be at least 1")
	}
	for _, p := range []*string{&c.lineage, &lbBin, &c.web} {
		if *p, err = filepath.Abs(*p); err != nil {
			return err
		}
	}
	keep := c.work != ""
	if !keep {
		if c.work, err = os.MkdirTemp("", "lineage-cluster-"); err != nil {
			return err
		}
	}
	defer func() {
		c.stopAll()
		storetest.StopCluster()
		if !keep {
			os.RemoveAll(c.work)
		}
	}()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()

	if c.dbURL, err = storetest.NewPostgresDatabase(); err != nil {
		return err
	}
	if c.db, err = sql.Open("pgx", c.dbURL); err != nil {
		return err
	}
	defer c.db.Close()
	lbPort, err := freeport.Pick()
	if err != nil {
		return err
	}
	c.lbURL = fmt.Sprintf("http://127.0.0.1:%d", lbPort)
	for i := range n {
		port, err := freeport.Pick()
		if err != nil {
			return err
		}
		in := &instance{Index: i, port: port, URL: fmt.Sprintf("http://127.0.0.1:%d", port),
			Data: filepath.Join(c.work, fmt.Sprintf("data-%d", i)), Log: filepath.Join(c.work, fmt.Sprintf("instance-%d.log", i))}
		if err := os.MkdirAll(in.Data, 0o755); err != nil {
			return err
		}
		c.instances = append(c.instances, in)
	}
	starts := c.instances
	if !together {
		if err := c.start(ctx, c.instances[0]); err != nil {
			return err
		}
		starts = c.instances[1:]
	}
	errs := make(chan error, len(starts))
	for _, in := range starts {
		go func() { errs <- c.start(ctx, in) }()
	}
	for range starts {
		if e := <-errs; e != nil && err == nil {
			err = e
		}
	}
	if err != nil {
		return err
	}
	if err := c.startLB(ctx, lbBin, lbPort); err != nil {
		return err
	}

	out := json.NewEncoder(os.Stdout)
	s3 := ""
	if c.s3 != nil {
		s3 = c.s3.URL
	}
	out.Encode(map[string]any{"lb": c.lbURL, "lb_log": c.lbLog, "database_url": c.dbURL, "instances": c.instances, "work": c.work, "s3": s3})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case line, ok := <-lines:
			if !ok {
				return nil
			}
			res, err := c.command(ctx, strings.Fields(line))
			if err != nil {
				res = map[string]any{"error": err.Error()}
			} else if res == nil {
				res = map[string]any{"ok": true}
			}
			out.Encode(res)
		}
	}
}

func (c *cluster) command(ctx context.Context, args []string) (map[string]any, error) {
	if len(args) == 0 {
		return nil, errors.New("empty command")
	}
	if args[0] == "lineage" {
		cmd := exec.CommandContext(ctx, c.lineage, args[1:]...)
		cmd.Env = append(c.baseEnv(), "LINEAGE_DATABASE_URL="+c.dbURL)
		cmd.Dir = filepath.Dir(c.web)
		b, err := cmd.CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("lineage %s: %v: %s", strings.Join(args[1:], " "), err, b)
		}
		return map[string]any{"ok": true, "output": string(b)}, nil
	}
	if args[0] == "mails" {
		return c.mails(ctx)
	}
	if args[0] == "sql" {
		return c.query(ctx, strings.Join(args[1:], " "))
	}
	if len(args) != 2 {
		return nil, fmt.Errorf("%s: want `%s N`", args[0], args[0])
	}
	i, err := strconv.Atoi(args[1])
	if err != nil || i < 0 || i >= len(c.instances) {
		return nil, fmt.Errorf("no instance %q", args[1])
	}
	in := c.instances[i]
	switch args[0] {
	case "kill", "stop":
		sig := syscall.SIGKILL
		if args[0] == "stop" {
			sig = syscall.SIGTERM
		}
		if in.cmd == nil {
			return nil, fmt.Errorf("instance %d is not running", i)
		}
		// The whole process group: an instance's SSR workers die with it, as on a
		// machine that goes away.
		syscall.Kill(-in.cmd.Process.Pid, sig)
		<-in.done
		c.mu.Lock()
		in.cmd = nil
		c.mu.Unlock()
		return map[string]any{"ok": true, "index": i}, nil
	case "start":
		if in.cmd != nil {
			return nil, fmt.Errorf("instance %d is running", i)
		}
		if err := c.start(ctx, in); err != nil {
			return nil, err
		}
		return map[string]any{"ok": true, "index": i, "pid": in.PID}, nil
	}
	return nil, fmt.Errorf("unknown command %q", args[0])
}

func (c *cluster) query(ctx context.Context, q string) (map[string]any, error) {
	rows, err := c.db.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	out := [][]*string{}
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make([]*string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = &v.String
			}
		}
		out = append(out, row)
	}
	return map[string]any{"ok": true, "columns": cols, "rows": out}, rows.Err()
}

type mailFile struct {
	Where string `json:"where"`
	Name  string `json:"name"`
	Text  string `json:"text"`
}

func (c *cluster) mails(ctx context.Context) (map[string]any, error) {
	out := []mailFile{}
	for _, in := range c.instances {
		files, _ := filepath.Glob(filepath.Join(in.Data, "mail", "*.eml"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, mailFile{Where: fmt.Sprintf("instance %d", in.Index), Name: filepath.Base(f), Text: string(b)})
		}
	}
	if c.bucket != nil {
		err := c.bucket.List(ctx, "mail/", func(info blob.Info) error {
			if !strings.HasSuffix(info.Key, ".eml") {
				return nil
			}
			r, _, err := c.bucket.Get(ctx, info.Key, blob.Range{})
			if err != nil {
				return err
			}
			defer r.Close()
			b, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			out = append(out, mailFile{Where: "bucket", Name: info.Key, Text: string(b)})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return map[string]any{"ok": true, "mails": out}, nil
}

// baseEnv is the caller's environment without its LINEAGE_* settings (the cluster's
// own are set), plus -env.
func (c *cluster) baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "LINEAGE_") && !strings.HasPrefix(kv, "LINEAGE_SSR_") {
			continue
		}
		if strings.HasPrefix(kv, "NODE_OPTIONS=") || strings.HasPrefix(kv, "NODE_TEST_CONTEXT=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, c.env...)
}

func (c *cluster) start(ctx context.Context, in *instance) error {
	args := []string{"serve", "--addr", fmt.Sprintf("127.0.0.1:%d", in.port), "--data", in.Data, "--web", c.web}
	if c.demo {
		args = append(args, "--demo")
	}
	logf, err := os.OpenFile(in.Log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(c.lineage, args...)
	cmd.Dir = filepath.Dir(c.web)
	cmd.Env = append(c.baseEnv(), "LINEAGE_DATABASE_URL="+c.dbURL, "LINEAGE_PUBLIC_URL="+c.lbURL)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(done) }()
	c.mu.Lock()
	in.cmd, in.done, in.PID = cmd, done, cmd.Process.Pid
	c.mu.Unlock()
	return waitReady(ctx, in.URL+"/readyz", done, in.Log, 3*time.Minute)
}

func (c *cluster) startLB(ctx context.Context, bin string, port int) error {
	args := []string{"-addr", fmt.Sprintf("127.0.0.1:%d", port)}
	for _, in := range c.instances {
		args = append(args, "-backend", in.URL)
	}
	c.lbLog = filepath.Join(c.work, "lb.log")
	logf, err := os.Create(c.lbLog)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); logf.Close(); close(done) }()
	c.lb = cmd
	// Ready when it passes a request on to an instance.
	return waitReady(ctx, c.lbURL+"/healthz", done, c.lbLog, 30*time.Second)
}

func waitReady(ctx context.Context, url string, exited <-chan struct{}, logPath string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	last := ""
	client := &http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return fmt.Errorf("%s: the process exited before it was ready:\n%s", url, tail(logPath))
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		res, err := client.Get(url)
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(res.Body, 512))
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%d %s", res.StatusCode, strings.TrimSpace(string(b)))
		} else {
			last = err.Error()
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("%s not ready after %s (last: %s):\n%s", url, limit, last, tail(logPath))
}

func tail(path string) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}

func (c *cluster) stopAll() {
	var wg sync.WaitGroup
	for _, in := range c.instances {
		c.mu.Lock()
		cmd, done := in.cmd, in.done
		c.mu.Unlock()
		if cmd == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
				<-done
			}
		}()
	}
	wg.Wait()
	if c.lb != nil {
		c.lb.Process.Signal(syscall.SIGTERM)
		c.lb.Wait()
	}
}
