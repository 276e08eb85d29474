//! The rendezvous hub the replicas of one run share (spec/distributed.md §1).
//!
//! Every collective is one *round*: each replica hands its operand in and,
//! once all have, reads every replica's operand (indexed by replica id) and
//! computes its own result from those of its group. All replicas take part in
//! every collective, as in XLA, so the k-th collective of each replica must be
//! the same op at the same place; a round is matched by its number, not by
//! its op, so that a disagreement is seen and reported instead of waited on.
//!
//! Send puts a value in a mailbox (channel, source, target) and returns at
//! once; Recv waits until its mailbox holds one.
//!
//! No wait is unbounded: a waiting replica wakes every `POLL` to look at
//! Ctrl-C, and whenever any replica changes state it checks whether its wait
//! can still end. It cannot when a replica it waits for finished or failed,
//! or when every replica still running is itself waiting on something that
//! cannot happen (a deadlock); then it fails with a diagnostic that names the
//! op, its line, who arrived and what each other replica is doing.

use super::Site;
use crate::KernelError;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;
use xlet_core::value::Value;

/// How often a waiting replica looks at the Ctrl-C flag.
const POLL: Duration = Duration::from_millis(50);

/// A mailbox: (channel id, source replica, target replica).
type MailKey = (i64, usize, usize);

#[derive(Clone, Debug)]
enum Status {
    Running,
    /// Waiting in collective round `r`.
    Collective(u64),
    /// Waiting in Recv for a mailbox, at a site.
    Recv(MailKey, Site),
    Finished,
    Failed,
}

#[derive(Debug, Default)]
struct Round {
    /// Each replica's site and operand, once it has arrived.
    arrived: Vec<Option<(Site, Value)>>,
    /// All operands by replica id, once every replica has arrived.
    done: Option<Arc<Gathered>>,
    /// How many replicas have taken the result (the round is dropped after the last).
    taken: usize,
}

#[derive(Debug)]
struct State {
    status: Vec<Status>,
    /// The number of the next round each replica will join.
    next_round: Vec<u64>,
    rounds: BTreeMap<u64, Round>,
    mail: HashMap<MailKey, VecDeque<Value>>,
    /// How many replicas are `Running`: while any is, no wait is hopeless
    /// yet (so most wake-ups decide in O(1), with a thousand replicas too).
    running: usize,
}

impl State {
    fn set(&mut self, id: usize, s: Status) {
        let was = matches!(self.status[id], Status::Running);
        let is = matches!(s, Status::Running);
        self.running = self.running + usize::from(is) - usize::from(was);
        self.status[id] = s;
    }
}

#[derive(Debug)]
pub struct Hub {
    count: usize,
    state: Mutex<State>,
    changed: Condvar,
}

impl Hub {
    pub fn new(count: usize) -> Hub {
        Hub {
            count,
            state: Mutex::new(State {
                status: vec![Status::Running; count],
                next_round: vec![0; count],
                rounds: BTreeMap::new(),
                mail: HashMap::new(),
                running: count,
            }),
            changed: Condvar::new(),
        }
    }

    pub fn count(&self) -> usize {
        self.count
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A replica that panicked holding the lock left the state as it was
        // between two whole updates: keep using it.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Replica `id` ended: `failed` if with an error. Replicas waiting for it are woken.
    pub fn finish(&self, id: usize, failed: bool) {
        let mut st = self.lock();
        if id < self.count {
            st.set(
                id,
                if failed {
                    Status::Failed
                } else {
                    Status::Finished
                },
            );
        }
        drop(st);
        self.changed.notify_all();
    }

    /// One collective: hands `value` in for replica `id` and returns every
    /// replica's operand, indexed by replica id, once all have arrived.
    pub fn exchange(
        &self,
        id: usize,
        site: &Site,
        value: Value,
    ) -> Result<Arc<Gathered>, KernelError> {
        let mut st = self.lock();
        let (Some(r), true) = (st.next_round.get(id).copied(), id < self.count) else {
            return Err(internal("replica id out of range"));
        };
        st.next_round[id] = r + 1;
        let count = self.count;
        let round = st.rounds.entry(r).or_default();
        round.arrived.resize_with(count, || None);
        round.arrived[id] = Some((site.clone(), value));
        if round.arrived.iter().all(Option::is_some) {
            let values = round
                .arrived
                .iter()
                .filter_map(|a| a.as_ref().map(|(_, v)| v.clone()))
                .collect();
            round.done = Some(Arc::new(Gathered {
                values,
                memo: Mutex::new(HashMap::new()),
            }));
        }
        let done = round.done.is_some();
        st.set(id, Status::Collective(r));
        // Waiters need waking only when the round is complete, or when no
        // replica runs any more (then some wait may be hopeless).
        if done || st.running == 0 {
            self.changed.notify_all();
        }
        self.wait_round(st, id, r, site)
    }

    /// One timed wait for a change, by a replica that is waiting: Ctrl-C ends
    /// it (the replica is marked running again), else the hub is locked again.
    fn pause<'g>(
        &self,
        mut st: MutexGuard<'g, State>,
        id: usize,
    ) -> Result<MutexGuard<'g, State>, KernelError> {
        if xlet_core::config::interrupted() {
            st.set(id, Status::Running);
            return Err(KernelError::new("interrupted", "interrupted"));
        }
        Ok(match self.changed.wait_timeout(st, POLL) {
            Ok((g, _)) => g,
            Err(p) => p.into_inner().0,
        })
    }

    fn wait_round(
        &self,
        mut st: MutexGuard<'_, State>,
        id: usize,
        r: u64,
        site: &Site,
    ) -> Result<Arc<Gathered>, KernelError> {
        loop {
            let verdict = self.round_verdict(&st, r, site);
            match verdict {
                Verdict::Ready => {
                    let round = st.rounds.get_mut(&r);
                    let Some(round) = round else {
                        return Err(internal("collective round vanished"));
                    };
                    // Every replica must be at the same op, at the same place.
                    let sites: Vec<&Site> = round
                        .arrived
                        .iter()
                        .filter_map(|a| a.as_ref().map(|(s, _)| s))
                        .collect();
                    let mismatch = sites.iter().any(|s| !s.same_place(site));
                    let out = if mismatch {
                        Err(disagree(r, &sites))
                    } else {
                        round.done.clone().ok_or_else(|| internal("round not done"))
                    };
                    round.taken += 1;
                    if round.taken >= self.count {
                        st.rounds.remove(&r);
                    }
                    st.set(id, Status::Running);
                    return out;
                }
                Verdict::Stuck(msg) => {
                    st.set(id, Status::Running);
                    self.changed.notify_all();
                    return Err(KernelError::new("collective", msg));
                }
                Verdict::Wait => {}
            }
            st = self.pause(st, id)?;
        }
    }

    /// Whether round `r` is complete, can still complete, or never will.
    fn round_verdict(&self, st: &State, r: u64, site: &Site) -> Verdict {
        let Some(round) = st.rounds.get(&r) else {
            return Verdict::Stuck("internal error: collective round missing".into());
        };
        if round.done.is_some() {
            return Verdict::Ready;
        }
        // Every replica still running is absent from this round (an arrived
        // one waits in it): while one runs, the round may yet complete.
        if st.running > 0 {
            return Verdict::Wait;
        }
        let arrived: Vec<usize> = (0..self.count)
            .filter(|&j| round.arrived.get(j).is_some_and(Option::is_some))
            .collect();
        let absent: Vec<usize> = (0..self.count).filter(|j| !arrived.contains(j)).collect();
        // A replica that finished or failed will never arrive. Waiting for
        // the others still running to settle too makes the report the same
        // on every run (who arrived, who is where).
        let gone = absent
            .iter()
            .any(|&j| matches!(st.status[j], Status::Finished | Status::Failed));
        let settled = absent
            .iter()
            .all(|&j| !matches!(st.status[j], Status::Running));
        if (gone && settled) || deadlocked(st) {
            let mut msg = format!(
                "{} (line {}) needs every replica, but it cannot complete: {} arrived",
                site.op,
                site.line,
                replicas(&arrived)
            );
            for j in absent {
                msg.push_str(&format!("; replica {j} {}", doing(st, j)));
            }
            return Verdict::Stuck(msg);
        }
        Verdict::Wait
    }

    /// Send: puts `value` in the mailbox (channel, `from`, `to`); never waits.
    pub fn send(&self, from: usize, channel: i64, to: usize, value: Value) {
        let mut st = self.lock();
        st.mail
            .entry((channel, from, to))
            .or_default()
            .push_back(value);
        drop(st);
        self.changed.notify_all();
    }

    /// Recv: the oldest value sent to `id` on `channel` by `source`, waiting for one.
    pub fn recv(
        &self,
        id: usize,
        channel: i64,
        source: usize,
        site: &Site,
    ) -> Result<Value, KernelError> {
        let key = (channel, source, id);
        let mut st = self.lock();
        st.set(id, Status::Recv(key, site.clone()));
        if st.running == 0 {
            self.changed.notify_all();
        }
        loop {
            if let Some(v) = st.mail.get_mut(&key).and_then(VecDeque::pop_front) {
                st.set(id, Status::Running);
                return Ok(v);
            }
            let gone = source != id
                && matches!(
                    st.status.get(source),
                    Some(Status::Finished | Status::Failed)
                );
            if gone || deadlocked(&st) {
                let msg = format!(
                    "Recv (line {}) waits for a value on channel {channel} from replica {source}, \
                     but none will come: replica {source} {}",
                    site.line,
                    if source == id {
                        "is this replica, and it sent nothing on this channel before".to_string()
                    } else {
                        doing(&st, source)
                    }
                );
                st.set(id, Status::Running);
                self.changed.notify_all();
                return Err(KernelError::new("collective", msg));
            }
            st = self.pause(st, id)?;
        }
    }
}

/// Every replica's operand of one collective, by replica id, and the results
/// already computed from them: a group's reduction is computed once, by the
/// first member to need it, and shared (the same value, the same bits).
#[derive(Debug)]
pub struct Gathered {
    pub values: Vec<Value>,
    memo: Mutex<HashMap<Vec<usize>, Value>>,
}

impl Gathered {
    /// The value for `key` (a group), computed by `f` only if no replica has yet.
    pub fn once(
        &self,
        key: &[usize],
        f: impl FnOnce() -> Result<Value, KernelError>,
    ) -> Result<Value, KernelError> {
        let mut memo = self.memo.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = memo.get(key) {
            return Ok(v.clone());
        }
        let v = f()?;
        memo.insert(key.to_vec(), v.clone());
        Ok(v)
    }
}

enum Verdict {
    Ready,
    Wait,
    Stuck(String),
}

/// True when no replica can move: every one has ended or waits on something
/// that only another waiting (or ended) replica could provide.
fn deadlocked(st: &State) -> bool {
    st.running == 0
        && st.status.iter().all(|s| match s {
            Status::Running => false,
            Status::Finished | Status::Failed => true,
            Status::Collective(r) => st.rounds.get(r).is_none_or(|round| round.done.is_none()),
            Status::Recv(key, _) => st.mail.get(key).is_none_or(VecDeque::is_empty),
        })
}

/// What replica `j` is doing, for a diagnostic.
fn doing(st: &State, j: usize) -> String {
    match &st.status[j] {
        Status::Running => "is still running".into(),
        Status::Finished => "finished the program without reaching it".into(),
        Status::Failed => "failed (see its error)".into(),
        Status::Collective(r) => match st
            .rounds
            .get(r)
            .and_then(|round| round.arrived.get(j))
            .and_then(Option::as_ref)
        {
            Some((s, _)) => format!("waits in {} (line {})", s.op, s.line),
            None => "waits in another collective".into(),
        },
        Status::Recv((ch, src, _), s) => format!(
            "waits in Recv (line {}) for channel {ch} from replica {src}",
            s.line
        ),
    }
}

/// "replica 0", "replicas 0, 2", "no replica".
fn replicas(ids: &[usize]) -> String {
    let list: Vec<String> = ids.iter().map(usize::to_string).collect();
    match ids.len() {
        0 => "no replica".into(),
        1 => format!("replica {}", list[0]),
        _ => format!("replicas {}", list.join(", ")),
    }
}

fn disagree(r: u64, sites: &[&Site]) -> KernelError {
    let each: Vec<String> = sites
        .iter()
        .enumerate()
        .map(|(j, s)| format!("replica {j} is at {} (line {})", s.op, s.line))
        .collect();
    KernelError::new(
        "collective",
        format!(
            "the replicas reached different collectives as their collective number {}: {}; \
             every replica must run the same collectives in the same order",
            r + 1,
            each.join(", ")
        ),
    )
}

fn internal(what: &str) -> KernelError {
    KernelError::new("internal", format!("internal error: {what}"))
}
