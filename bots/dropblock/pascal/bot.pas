{ Drop the Block sample bot (Pascal). Prints READY, then answers every turn's input
  (id, T, 6 block rows, 4 player lines "R C D S", EOD) with one action:
   - fallen, or waiting after an attack (S > 0): N;
   - standing on a block that is about to fall: the quickest step off it onto a
     standing block;
   - an enemy on a standing block in line within 3 blocks: A when facing it,
     otherwise a move toward it (which turns it; it steps only onto a standing block);
   - otherwise a step toward the centre onto a standing block (never onto a
     falling or fallen one), or N.
  Deterministic. Exits at end of input. }
program bot;
{$mode objfpc}{$H+}

const
  SIZE = 18;
  SIDE = 3;
  BLOCKS = 6;
  PLAYERS = 4;
  LETTERS: string = 'URDL';
  DR: array[0..3] of integer = (-1, 0, 1, 0);
  DC: array[0..3] of integer = (0, 1, 0, -1);

var
  blk: array[0..BLOCKS - 1, 0..BLOCKS - 1] of integer;
  pr, pc, pd, ps: array[0..PLAYERS - 1] of integer;
  id, turn: integer;

{ Reads one line without the trailing CR and surrounding spaces; false at end of file. }
function ReadLine(var s: string): boolean;
var
  a, b: integer;
begin
  if eof(input) then
  begin
    ReadLine := false;
    exit;
  end;
  readln(s);
  a := 1;
  b := length(s);
  while (a <= b) and (s[a] in [' ', #9, #13]) do inc(a);
  while (b >= a) and (s[b] in [' ', #9, #13]) do dec(b);
  s := copy(s, a, b - a + 1);
  ReadLine := true;
end;

{ Splits s at spaces into w; returns the number of words (only the first ones are kept). }
function Split(const s: string; var w: array of string): integer;
var
  i, n: integer;
  cur: string;
begin
  n := 0;
  cur := '';
  for i := 1 to length(s) do
    if s[i] in [' ', #9] then
    begin
      if cur <> '' then
      begin
        if n <= high(w) then w[n] := cur;
        inc(n);
        cur := '';
      end;
    end
    else
      cur := cur + s[i];
  if cur <> '' then
  begin
    if n <= high(w) then w[n] := cur;
    inc(n);
  end;
  Split := n;
end;

function ToInt(const s: string): integer;
var
  v, code: integer;
begin
  val(s, v, code);
  if code <> 0 then v := 0;
  ToInt := v;
end;

function BlockAt(r, c: integer): integer;
begin
  BlockAt := blk[r div SIDE, c div SIDE];
end;

{ The move would step: on the board, not onto a fallen block, more than 3 from everyone. }
function Legal(d: integer): boolean;
var
  r, c, j: integer;
begin
  Legal := false;
  r := pr[id] + DR[d];
  c := pc[id] + DC[d];
  if (r < 0) or (r >= SIZE) or (c < 0) or (c >= SIZE) then exit;
  if BlockAt(r, c) < 0 then exit;
  for j := 0 to PLAYERS - 1 do
    if (j <> id) and (pr[j] >= 0) and (abs(r - pr[j]) + abs(c - pc[j]) <= 3) then exit;
  Legal := true;
end;

function Safe(d: integer): boolean;
begin
  Safe := Legal(d) and (BlockAt(pr[id] + DR[d], pc[id] + DC[d]) = 0);
end;

function Decide: char;
var
  r, c, br, bc, best, bestSteps, d, nr, nc, k, j, qr, qc, n, nw: integer;
  steps: array[0..3] of integer;
  want: array[0..1] of integer;
  inLine: boolean;
begin
  Decide := 'N';
  r := pr[id];
  c := pc[id];
  if (r < 0) or (ps[id] > 0) then exit;
  br := r div SIDE;
  bc := c div SIDE;
  { get off a falling block }
  if blk[br, bc] > 0 then
  begin
    best := -1;
    bestSteps := 0;
    steps[0] := r mod SIDE + 1;
    steps[1] := SIDE - c mod SIDE;
    steps[2] := SIDE - r mod SIDE;
    steps[3] := c mod SIDE + 1;
    for d := 0 to 3 do
    begin
      nr := br + DR[d];
      nc := bc + DC[d];
      if not Legal(d) or (nr < 0) or (nr >= BLOCKS) or (nc < 0) or (nc >= BLOCKS) then continue;
      if blk[nr, nc] <> 0 then continue;
      if (best < 0) or (steps[d] < bestSteps) then
      begin
        best := d;
        bestSteps := steps[d];
      end;
    end;
    if best >= 0 then
    begin
      Decide := LETTERS[best + 1];
      exit;
    end;
  end;
  { an enemy in line: attack, or turn to it }
  for k := 0 to 3 do
  begin
    d := (pd[id] + k) mod 4;
    for j := 0 to PLAYERS - 1 do
    begin
      if (j = id) or (pr[j] < 0) then continue;
      qr := pr[j] div SIDE;
      qc := pc[j] div SIDE;
      if blk[qr, qc] <> 0 then continue;
      n := (qr - br) * DR[d] + (qc - bc) * DC[d];
      inLine := ((DR[d] <> 0) and (qc = bc)) or ((DC[d] <> 0) and (qr = br));
      if not inLine or (n < 1) or (n > 3) then continue;
      if k = 0 then
      begin
        Decide := 'A';
        exit;
      end;
      if Safe(d) or not Legal(d) then
      begin
        Decide := LETTERS[d + 1];
        exit;
      end;
    end;
  end;
  { toward the centre }
  nw := 0;
  if r < SIZE div 2 - 1 then
  begin
    want[nw] := 2;
    inc(nw);
  end
  else if r > SIZE div 2 then
  begin
    want[nw] := 0;
    inc(nw);
  end;
  if c < SIZE div 2 - 1 then
  begin
    want[nw] := 1;
    inc(nw);
  end
  else if c > SIZE div 2 then
  begin
    want[nw] := 3;
    inc(nw);
  end;
  for k := 0 to nw - 1 do
  begin
    d := want[(k + turn div PLAYERS) mod nw];
    if Safe(d) then
    begin
      Decide := LETTERS[d + 1];
      exit;
    end;
  end;
end;

var
  line: string;
  words: array[0..7] of string;
  r, c, p, k, n: integer;

begin
  writeln('READY');
  flush(output);
  while ReadLine(line) do
  begin
    id := ToInt(line);
    if not ReadLine(line) then halt(0);
    turn := ToInt(line);
    for r := 0 to BLOCKS - 1 do
    begin
      if not ReadLine(line) then halt(0);
      n := Split(line, words);
      for c := 0 to BLOCKS - 1 do
        if c < n then blk[r, c] := ToInt(words[c]) else blk[r, c] := 0;
    end;
    for p := 0 to PLAYERS - 1 do
    begin
      if not ReadLine(line) then halt(0);
      n := Split(line, words);
      pr[p] := -1;
      pc[p] := -1;
      pd[p] := 0;
      ps[p] := 0;
      if n = 4 then
      begin
        pr[p] := ToInt(words[0]);
        pc[p] := ToInt(words[1]);
        ps[p] := ToInt(words[3]);
        k := Pos(words[2], LETTERS);
        if k > 0 then pd[p] := k - 1;
      end;
    end;
    if not ReadLine(line) then halt(0); { EOD }
    if (id < 0) or (id >= PLAYERS) then id := 0;
    { A dot on its square, a note once fallen (drawn by the viewer: docs/viewer.md, Drawing on the board). }
    if pr[id] >= 0 then
      writeln(StdErr, '@judge dot ', pc[id], ' ', pr[id], ' layer=sample')
    else
      writeln(StdErr, '@judge note layer=sample fallen');
    flush(StdErr);
    writeln(Decide);
    flush(output);
  end;
end.
