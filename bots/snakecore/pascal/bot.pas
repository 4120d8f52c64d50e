{ SnakeCore sample bot (Pascal), written with the judge's helper library (the unit Snake,
  which the judge adds to the submission).
  Each move: deliver to an adjacent reactor once the body has 5 blocks; otherwise walk
  (breadth-first search over empty cells, free blocks and the own tail) toward the nearest
  free block, or toward a cell next to a reactor when the body is long enough or no free
  block is reachable. Deterministic; exits at the end of the input (Snake's Run loop). }
program bot;
{$mode objfpc}{$H+}

uses Snake;

const
  DeliverAt = 5;

{ A cell the head may step on without a fight: empty, a free block, the own tail. }
function Passable(var A: TAreaInfo; X, Y: longint): boolean;
var
  me: TPython;
begin
  me := A.Pythons[0];
  Passable := A.IsEmpty(X, Y) or A.IsFreeBlock(X, Y) or
    ((me.Len > 1) and (X = me.Parts[me.Len - 1].X) and (Y = me.Parts[me.Len - 1].Y));
end;

function NextToReactor(var A: TAreaInfo; X, Y: longint): boolean;
var
  d: longint;
begin
  NextToReactor := false;
  for d := 0 to 3 do
    if A.Cell(StepX(X, Moves[d]), StepY(Y, Moves[d])) = CellReactor then
      NextToReactor := true;
end;

function Goal(var A: TAreaInfo; X, Y: longint; Reactor: boolean): boolean;
begin
  if Reactor then
    Goal := NextToReactor(A, X, Y)
  else
    Goal := A.IsFreeBlock(X, Y);
end;

{ The first move of a shortest path to a goal cell, or ActNone. }
function Toward(var A: TAreaInfo; Reactor: boolean): char;
var
  first: array of char;
  qx, qy: array of longint;
  head, tail, n, d, x, y, hx, hy: longint;
  via: char;
begin
  Toward := ActNone;
  n := A.Size;
  SetLength(first, n * n);
  SetLength(qx, n * n);
  SetLength(qy, n * n);
  for x := 0 to n * n - 1 do
    first[x] := #0;
  head := 0;
  tail := 0;
  hx := A.Pythons[0].Parts[0].X;
  hy := A.Pythons[0].Parts[0].Y;
  for d := 0 to 3 do
  begin
    x := StepX(hx, Moves[d]);
    y := StepY(hy, Moves[d]);
    if not Passable(A, x, y) or (first[y * n + x] <> #0) then
      continue;
    if Goal(A, x, y, Reactor) then
    begin
      Toward := Moves[d];
      exit;
    end;
    first[y * n + x] := Moves[d];
    qx[tail] := x;
    qy[tail] := y;
    inc(tail);
  end;
  while head < tail do
  begin
    via := first[qy[head] * n + qx[head]];
    for d := 0 to 3 do
    begin
      x := StepX(qx[head], Moves[d]);
      y := StepY(qy[head], Moves[d]);
      if not Passable(A, x, y) or (first[y * n + x] <> #0) or ((x = hx) and (y = hy)) then
        continue;
      if Goal(A, x, y, Reactor) then
      begin
        Toward := via;
        exit;
      end;
      first[y * n + x] := via;
      qx[tail] := x;
      qy[tail] := y;
      inc(tail);
    end;
    inc(head);
  end;
end;

function ReactorMove(var A: TAreaInfo): char;
var
  d: longint;
begin
  ReactorMove := ActNone;
  for d := 0 to 3 do
    if A.Cell(StepX(A.Pythons[0].Parts[0].X, Moves[d]), StepY(A.Pythons[0].Parts[0].Y, Moves[d])) = CellReactor then
      ReactorMove := Moves[d];
end;

function Decide(var A: TAreaInfo): char;
var
  body, d: longint;
  r: char;
begin
  body := A.Pythons[0].Len - 1;
  { A dot on its head (drawn by the viewer: docs/viewer.md, Drawing on the board). }
  writeln(StdErr, '@judge dot ', A.Pythons[0].Parts[0].X, ' ', A.Pythons[0].Parts[0].Y, ' layer=sample');
  flush(StdErr);
  if body >= DeliverAt then
  begin
    r := ReactorMove(A);
    if r <> ActNone then
    begin
      Decide := r;
      exit;
    end;
  end;
  r := Toward(A, body >= DeliverAt);
  if (r = ActNone) and (body > 0) then
  begin
    r := ReactorMove(A);
    if r = ActNone then
      r := Toward(A, true);
  end;
  if r = ActNone then
    for d := 3 downto 0 do
      if Passable(A, StepX(A.Pythons[0].Parts[0].X, Moves[d]), StepY(A.Pythons[0].Parts[0].Y, Moves[d])) then
        r := Moves[d];
  Decide := r;
end;

begin
  Run('sample-pascal', @Decide);
end.
