//! A real SSH tunnel on loopback for the tests of "agent on a server, person on a laptop": a
//! private `sshd` of the test's own (its host key, its authorized key, its port, never the
//! machine's), and `ssh -N -L` or `ssh -N -R` through it, as docs/remote.md writes them.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const SSHD: &str = "/usr/sbin/sshd";

/// What is missing for a tunnel here, if anything.
pub fn missing() -> Option<String> {
    if !Path::new(SSHD).exists() {
        return Some(format!(
            "{SSHD} is not installed (apt-get install openssh-server)"
        ));
    }
    for tool in ["ssh", "ssh-keygen"] {
        if Command::new(tool).arg("-V").output().is_err()
            && Command::new(tool).arg("-?").output().is_err()
        {
            return Some(format!("{tool} is not installed"));
        }
    }
    None
}

/// Which way the tunnel carries.
pub enum Forward {
    /// `ssh -L listen:127.0.0.1:target`: the laptop's port reaches the server's.
    Local,
    /// `ssh -R listen:127.0.0.1:target`: the server's port reaches the laptop's.
    Remote,
}

/// An sshd and an ssh client forwarding one port; both killed when dropped.
pub struct Tunnel {
    sshd: Child,
    ssh: Child,
    /// The port the tunnel listens on.
    pub port: u16,
    _dir: tempfile::TempDir,
}

impl Drop for Tunnel {
    fn drop(&mut self) {
        for child in [&mut self.ssh, &mut self.sshd] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn wait_for_port(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{what} never listened on {port}");
        std::thread::sleep(Duration::from_millis(30));
    }
}

fn keygen(path: &Path) {
    let status = Command::new("ssh-keygen")
        .args(["-q", "-t", "ed25519", "-N", "", "-f"])
        .arg(path)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "ssh-keygen");
}

impl Tunnel {
    /// A tunnel forwarding `target` (a port on 127.0.0.1) the `forward` way.
    pub fn start(forward: Forward, target: u16) -> Tunnel {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        keygen(&d.join("host"));
        keygen(&d.join("id"));
        std::fs::copy(d.join("id.pub"), d.join("authorized_keys")).unwrap();
        let user = std::env::var("USER")
            .ok()
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| {
                let out = Command::new("id").arg("-un").output().unwrap();
                String::from_utf8_lossy(&out.stdout).trim().to_owned()
            });
        let sshd_port = free_port();
        // sshd wants its privilege separation folder; as root the test may make it.
        let _ = std::fs::create_dir_all("/run/sshd");
        let config = format!(
            "Port {sshd_port}\nListenAddress 127.0.0.1\nHostKey {host}\nPidFile {pid}\nAuthorizedKeysFile {keys}\nPasswordAuthentication no\nKbdInteractiveAuthentication no\nUsePAM no\nPermitRootLogin prohibit-password\nStrictModes no\nAllowTcpForwarding yes\nGatewayPorts no\nAllowUsers {user}\n",
            host = d.join("host").display(),
            pid = d.join("sshd.pid").display(),
            keys = d.join("authorized_keys").display(),
        );
        std::fs::write(d.join("sshd_config"), config).unwrap();
        let sshd = Command::new(SSHD)
            .args(["-D", "-e", "-f"])
            .arg(d.join("sshd_config"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("sshd starts");
        wait_for_port(sshd_port, "sshd");
        let port = free_port();
        let spec = format!("{port}:127.0.0.1:{target}");
        let flag = match forward {
            Forward::Local => "-L",
            Forward::Remote => "-R",
        };
        let ssh = Command::new("ssh")
            .args(["-N", "-F", "/dev/null", "-i"])
            .arg(d.join("id"))
            .args([
                "-o",
                "StrictHostKeyChecking=no",
                "-o",
                "UserKnownHostsFile=/dev/null",
                "-o",
                "BatchMode=yes",
                "-o",
                "ExitOnForwardFailure=yes",
                "-o",
                "LogLevel=ERROR",
                flag,
                &spec,
                "-p",
                &sshd_port.to_string(),
                &format!("{user}@127.0.0.1"),
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh starts");
        wait_for_port(port, "the tunnel");
        Tunnel {
            sshd,
            ssh,
            port,
            _dir: dir,
        }
    }
}
