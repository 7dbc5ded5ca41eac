! A Fortran MPI program with wait states of known size, for the tests of
! tr-record (Open MPI's Fortran bindings call PMPI directly): rank 0
! sleeps DELAY ms (the first argument, 200 by default), then sends to
! rank 1 (a late sender); then the last rank sleeps into a barrier; then
! rank 0 sleeps, Isends to every rank, which Irecv and Waitall; then
! every rank joins an Allreduce on a split communicator; then, without
! delays, an Allgather and a Gather, and rank 1 sends to rank 0, which
! tests until the message is there, while rank 1 waits with Waitany.
! Built twice: with `use mpi`, and with -DF08 with `use mpi_f08`, whose
! handles are types.
program mpi_patterns
#ifdef F08
  use mpi_f08
#else
  use mpi
#endif
  use iso_c_binding, only: c_int
  implicit none
  interface
    function usleep(us) bind(c, name='usleep')
      import :: c_int
      integer(c_int), value :: us
      integer(c_int) :: usleep
    end function usleep
  end interface
  integer :: rank, size, ierr, x, y, r, n, idx
  integer :: all(64)
#ifdef F08
  type(MPI_Comm) :: half
  type(MPI_Request) :: reqs(64)
#else
  integer :: half
  integer :: reqs(64)
#endif
  logical :: flag
  integer :: delay
  character(len=16) :: arg

  delay = 200
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) delay
  end if
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  x = 1
  if (rank == 0) then
    ierr = usleep(delay * 1000)
    call MPI_Send(x, 1, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr)
  else if (rank == 1) then
    call MPI_Recv(y, 1, MPI_INTEGER, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end if
  if (rank == size - 1) ierr = usleep(delay * 1000)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  n = 0
  if (rank == 0) then
    ierr = usleep(delay * 1000)
    do r = 1, size - 1
      n = n + 1
      call MPI_Isend(x, 1, MPI_INTEGER, r, 3, MPI_COMM_WORLD, reqs(n), ierr)
    end do
  else
    n = 1
    call MPI_Irecv(y, 1, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, reqs(1), ierr)
  end if
  call MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), rank, half, ierr)
  call MPI_Allreduce(x, y, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Allgather(x, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call MPI_Gather(x, 1, MPI_INTEGER, all, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 1) then
    call MPI_Isend(x, 1, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, reqs(1), ierr)
    call MPI_Waitany(1, reqs, idx, MPI_STATUS_IGNORE, ierr)
  else if (rank == 0) then
    call MPI_Irecv(y, 1, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, reqs(1), ierr)
    flag = .false.
    do while (.not. flag)
      call MPI_Test(reqs(1), flag, MPI_STATUS_IGNORE, ierr)
    end do
  end if
  call MPI_Finalize(ierr)
end program mpi_patterns
