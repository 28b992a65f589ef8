! Ping-pong between ranks 0 and 1, then an MPI_Allreduce and an MPI_Barrier
! over all ranks, all through MPICH's Fortran bindings (which call the C
! MPI functions, so a C PMPI tool sees these calls too). Details:
! doc/examples.md.
program fpingpong
  use mpi
  use iso_fortran_env, only : error_unit
  implicit none
  integer, parameter :: ping_tag = 1, pong_tag = 2
  integer :: ierr, rank, ranks, round_trips, elements, round, total, wrong, status_code
  integer :: status(MPI_STATUS_SIZE)
  logical :: run
  integer, allocatable :: buffer(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)

  round_trips = 10
  elements = 128
  call parse_options(rank == 0, run, status_code)
  if (run .and. ranks < 2) then
    if (rank == 0) write (error_unit, '(a,i0)') 'fpingpong: needs at least 2 ranks, got ', ranks
    run = .false.
    status_code = 2
  end if
  if (.not. run) then
    call MPI_Finalize(ierr)
    if (status_code /= 0) stop 2, quiet=.true.
    stop
  end if

  allocate (buffer(elements))
  wrong = 0
  do round = 1, round_trips
    if (rank == 0) then
      call fill(buffer, round)
      call MPI_Send(buffer, elements, MPI_INTEGER, 1, ping_tag, MPI_COMM_WORLD, ierr)
      call MPI_Recv(buffer, elements, MPI_INTEGER, 1, pong_tag, MPI_COMM_WORLD, &
                    status, ierr)
      wrong = wrong + mismatches(buffer, round)
    else if (rank == 1) then
      call MPI_Recv(buffer, elements, MPI_INTEGER, 0, ping_tag, MPI_COMM_WORLD, &
                    status, ierr)
      call MPI_Send(buffer, elements, MPI_INTEGER, 0, pong_tag, MPI_COMM_WORLD, ierr)
    end if
  end do
  deallocate (buffer)

  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (total /= ranks * (ranks - 1) / 2) wrong = wrong + 1
  call MPI_Barrier(MPI_COMM_WORLD, ierr)

  if (wrong /= 0) then
    write (error_unit, '(a,i0,a,i0,a)') 'fpingpong: rank ', rank, ': ', wrong, ' wrong values'
  else if (rank == 0) then
    write (*, '(a,i0,a,i0,a,i0,a)') 'fpingpong: ', ranks, ' ranks, ', round_trips, &
      ' round trips of ', elements, ' integers, allreduce correct'
  end if
  call MPI_Finalize(ierr)
  if (wrong /= 0) stop 1, quiet=.true.

contains

  ! The payload of round trip `round`; rank 1 echoes it, rank 0 checks it.
  subroutine fill(values, round)
    integer, intent(out) :: values(:)
    integer, intent(in) :: round
    integer :: i
    do i = 1, size(values)
      values(i) = round * 1000 + i
    end do
  end subroutine fill

  integer function mismatches(values, round)
    integer, intent(in) :: values(:)
    integer, intent(in) :: round
    integer :: expected(size(values))
    call fill(expected, round)
    mismatches = count(values /= expected)
  end function mismatches

  ! Reads `--count N`, `--elements N` and `--help`. Sets `run` when the
  ! program should go on; otherwise `code` is its exit status (0 after
  ! --help, 2 after an error). Only a rank with `speak` set prints.
  subroutine parse_options(speak, run, code)
    logical, intent(in) :: speak
    logical, intent(out) :: run
    integer, intent(out) :: code
    character(len=256) :: argument, value
    integer :: i, number, ios

    run = .true.
    code = 0
    i = 1
    do while (i <= command_argument_count())
      call get_command_argument(i, argument)
      if (argument == '--help' .or. argument == '-h') then
        if (speak) then
          write (*, '(a)') 'Usage: mpiexec -n RANKS fpingpong [options]'
          write (*, '(a)') 'Ranks 0 and 1 exchange messages, then all ranks reduce and synchronize.'
          write (*, '(a)') ''
          write (*, '(a)') 'Options:'
          write (*, '(a)') '  --count N              number of round trips (default 10)'
          write (*, '(a)') '  --elements N           integers per message (default 128)'
          write (*, '(a)') '  --help                 show this text and exit'
        end if
        run = .false.
        return
      end if
      if (argument /= '--count' .and. argument /= '--elements') then
        if (speak) write (error_unit, '(3a)') "fpingpong: unknown option '", trim(argument), &
          "' (try --help)"
        run = .false.
        code = 2
        return
      end if
      call get_command_argument(i + 1, value)
      read (value, *, iostat=ios) number
      if (i + 1 > command_argument_count() .or. ios /= 0 .or. number < 1) then
        if (speak) write (error_unit, '(3a)') 'fpingpong: option ', trim(argument), &
          ' expects a positive integer'
        run = .false.
        code = 2
        return
      end if
      if (argument == '--count') then
        round_trips = number
      else
        elements = number
      end if
      i = i + 2
    end do
  end subroutine parse_options

end program fpingpong
